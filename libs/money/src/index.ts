export * from './usd.js';
