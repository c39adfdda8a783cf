export * from './connection.js';
export * from './requester.js';
export * from './service-client.js';
export * from './metrics.js';
