export * from './infra.js';
export * from './auth.js';
export * from './processes.js';
export * from './system.js';
export * from './nats-server.js';
export * from './service-system.js';
export * from './round-trips.js';
export * from './hot-updates.js';
