export * from './connection.js';
export * from './requester.js';
export * from './subject-client.js';
export * from './metrics.js';
