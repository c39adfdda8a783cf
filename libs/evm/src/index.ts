export * from './address.js';
export * from './decorator.js';
export * from './chain-errors.js';
