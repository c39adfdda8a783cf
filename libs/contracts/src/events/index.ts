export * from './types.js';
export * from './payloads.js';
export * from './envelope.js';
