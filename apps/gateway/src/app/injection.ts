export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');
export const GATEWAY_LOGGER = Symbol('GATEWAY_LOGGER');
export const NATS = Symbol('NATS');
export const REDIS = Symbol('REDIS');
