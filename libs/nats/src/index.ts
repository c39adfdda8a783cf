export * from './connection.js';
export * from './requester.js';
