export * from './event-logger.js';
export * from './stream.js';
export * from './outbox.js';
export * from './relay.js';
export * from './consumer.js';
export * from './polling-loop.js';
export * from './metrics.js';
