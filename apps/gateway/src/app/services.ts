import type { NatsConnection } from '@nats-io/transport-node';
import { NatsRequester, ServiceClient, natsClientMetrics } from '@service/nats';
import type { Provider } from '@nestjs/common';
import type { GatewayConfig } from '../config.js';
import { GATEWAY_CONFIG, NATS } from './injection.js';

/** The services over NATS, typed by the contract; 503 on no responder or timeout. */
export const SERVICES_CLIENT = Symbol('SERVICES_CLIENT');

export const servicesClientProvider: Provider = {
  provide: SERVICES_CLIENT,
  inject: [NATS, GATEWAY_CONFIG],
  useFactory: (nats: NatsConnection, config: GatewayConfig) => new ServiceClient(new NatsRequester(nats, config.NATS_REQUEST_TIMEOUT_MS, natsClientMetrics())),
};
