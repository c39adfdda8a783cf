export * from './codes.js';
export * from './service-error.js';
export * from './http-body.js';
export * from './unavailable.js';
