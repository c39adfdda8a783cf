import { Inject, Injectable } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { BROADCASTS, type BroadcastPayloadOf } from '@service/contracts';
import { NATS_CONNECTION, SERVICE_LOGGER } from '@service/service-runtime';
import type { Logger } from 'pino';
import { ApiKeysRepository } from '../repositories/api-keys.repository.js';

/**
 * Tells every gateway replica that keys stopped working, on `identity.api-keys.revoked` (a core
 * NATS publish every gateway subscribes to without a queue group), so each evicts them from its
 * cache at once instead of when the cached entry runs out. Right after a revocation commits
 * ({@link announceNow}) and, from the expiry sweeper, every IDENTITY_EXPIRY_SWEEP_MS for keys
 * whose expiry (or a rolled key's grace period) passed. A key is claimed in the database before it is announced, so each
 * end goes out once across replicas; one lost to a crash between the two is still bounded by the
 * gateway's cache lifetime (30 s), and expiries by the cache never outliving `expiresAt`.
 */
@Injectable()
export class EndAnnouncer {
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly keys: ApiKeysRepository,
    @Inject(NATS_CONNECTION) private readonly connection: NatsConnection,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
  ) {}

  /** Announces every end not announced yet; runs one sweep at a time. */
  announceNow(): Promise<void> {
    this.running = this.running.then(() => this.sweep());
    return this.running;
  }

  /** Resolves once the sweep under way (if any) is done. */
  settled(): Promise<void> {
    return this.running;
  }

  private async sweep(): Promise<void> {
    try {
      for (const keyId of await this.keys.claimEnded()) {
        const payload: BroadcastPayloadOf<typeof BROADCASTS.apiKeyRevoked> = { keyId };
        this.connection.publish(BROADCASTS.apiKeyRevoked, JSON.stringify(payload));
      }
    } catch (error) {
      this.logger.warn({ err: error }, 'announcing ended API keys failed; the next sweep retries');
    }
  }
}
