import type { NatsConnection } from '@nats-io/transport-node';
import type { RequestContext, RequestOf, ResponseOf, Subject } from '@service/contracts';
import { type ForwardedJson, NatsRequester, SubjectClient, natsClientMetrics } from '@service/nats';
import { Inject, type Provider } from '@nestjs/common';
import type { GatewayConfig } from '../config.js';
import { GATEWAY_CONFIG, NATS } from './injection.js';

/** The services over NATS, typed by the contract; 503 on no responder or timeout. */
export const SERVICES_CLIENT = Symbol('SERVICES_CLIENT');

export const servicesClientProvider: Provider = {
  provide: SERVICES_CLIENT,
  inject: [NATS, GATEWAY_CONFIG],
  useFactory: (nats: NatsConnection, config: GatewayConfig) =>
    new SubjectClient(new NatsRequester(nats, config.NATS_REQUEST_TIMEOUT_MS, natsClientMetrics())),
};

/** A controller whose routes forward to the services: the typed client, written once. */
export abstract class ServiceRoutes {
  constructor(@Inject(SERVICES_CLIENT) protected readonly services: SubjectClient) {}

  /** Forwards `input` beside the caller's context; the response goes back as the JSON text it came as. */
  protected ask<S extends Subject>(subject: S, ctx: RequestContext, input: RequestOf<S>): Promise<ForwardedJson<ResponseOf<S>>> {
    return this.services.forward(subject, { ctx, ...input });
  }
}
