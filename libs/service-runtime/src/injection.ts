/** Injection tokens the runtime provides (config, logger, NATS) or the app provides (EVENT_DB). */
export const SERVICE_CONFIG = Symbol('SERVICE_CONFIG');
export const SERVICE_LOGGER = Symbol('SERVICE_LOGGER');
export const SERVICE_NAME = Symbol('SERVICE_NAME');
export const NATS_CONNECTION = Symbol('NATS_CONNECTION');
/** The service's Prisma client, as the event plumbing and health checks see it. */
export const EVENT_DB = Symbol('EVENT_DB');
/** What the outbox relay reads the outbox with: EVENT_DB unless the app names another executor. */
export const RELAY_DB = Symbol('RELAY_DB');
