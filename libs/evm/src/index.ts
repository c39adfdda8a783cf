export * from './address.js';
export * from './decorator.js';
