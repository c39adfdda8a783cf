import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import { BROADCASTS, type BroadcastPayloadOf, queueGroupOf } from '@service/contracts';
import { NATS_CONNECTION, SERVICE_LOGGER } from '@service/service-runtime';
import type { Logger } from 'pino';
import { ApiKeysRepository } from '../repositories/api-keys.repository.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Records `lastUsedAt` from the gateways' `identity.api-keys.used` notices (at most one a minute
 * per key and gateway replica, fire and forget), in this service's queue group so one replica
 * takes each. The write itself happens at most once a minute per key.
 */
@Injectable()
export class UsageRecorder implements OnApplicationBootstrap, OnApplicationShutdown {
  private subscription: Subscription | undefined;

  constructor(
    private readonly keys: ApiKeysRepository,
    @Inject(NATS_CONNECTION) private readonly connection: NatsConnection,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    this.subscription = this.connection.subscribe(BROADCASTS.apiKeyUsed, {
      queue: queueGroupOf('identity'),
      callback: (error, message) => {
        if (error) return;
        let keyId: unknown;
        try {
          ({ keyId } = message.json<BroadcastPayloadOf<typeof BROADCASTS.apiKeyUsed>>());
        } catch {
          return;
        }
        if (typeof keyId !== 'string' || !UUID.test(keyId)) return;
        this.keys
          .recordUse(keyId, new Date())
          .catch((failure: unknown) => this.logger.warn({ err: failure, keyId }, 'recording an API key use failed'));
      },
    });
  }

  onApplicationShutdown(): void {
    this.subscription?.unsubscribe();
  }
}
