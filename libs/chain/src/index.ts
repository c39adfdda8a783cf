export * from './anvil.js';
export * from './solidity.js';
