import type { NatsConnection } from '@nats-io/transport-node';
import { NatsRequester } from '@service/nats';
import type { Provider } from '@nestjs/common';
import type { GatewayConfig } from '../config.js';
import { GATEWAY_CONFIG, NATS } from './tokens.js';

/** Sends requests to services over NATS; 503 on no responder or timeout. */
export const SERVICE_REQUESTER = Symbol('SERVICE_REQUESTER');

export const serviceRequesterProvider: Provider = {
  provide: SERVICE_REQUESTER,
  inject: [NATS, GATEWAY_CONFIG],
  useFactory: (nats: NatsConnection, config: GatewayConfig) => new NatsRequester(nats, config.NATS_REQUEST_TIMEOUT_MS),
};
