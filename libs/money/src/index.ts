export * from './usd.js';
export * from './decorator.js';
