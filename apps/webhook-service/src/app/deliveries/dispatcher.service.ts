import { type BeforeApplicationShutdown, Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { PollingLoop } from '@service/events';
import { SERVICE_CONFIG, SERVICE_LOGGER } from '@service/service-runtime';
import type { Logger } from 'pino';
import type { WebhookConfig } from '../../config.js';
import { PgSql } from '../pg-sql.js';
import type { SecretBox } from '../security/secret-box.js';
import { signatureHeaders } from '../security/signature.js';
import { SECRET_BOX, WEBHOOK_SENDER } from '../webhook.providers.js';
import { type ClaimedDelivery, type Completion, claimDue, recordAttempt } from './delivery-store.js';
import { classifyResponse, nextRetryDelayMs } from './retry-policy.js';
import type { SendResult, WebhookSender } from './sender.js';

/**
 * Sends due deliveries. Each replica claims what it has free slots for, runs every attempt on its
 * own (one slow receiver holds one slot, not the loop) and looks again when woken (new
 * deliveries, a slot freed while work is waiting) or at the poll interval (retries coming due,
 * leases of crashed replicas running out).
 */
@Injectable()
export class DeliveryDispatcher implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly inFlight = new Set<Promise<void>>();
  private readonly leaseMs: number;
  private readonly loop: PollingLoop;
  private backlog = false;

  constructor(
    private readonly sql: PgSql,
    @Inject(SERVICE_CONFIG) private readonly config: WebhookConfig,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
    @Inject(SECRET_BOX) private readonly secrets: SecretBox,
    @Inject(WEBHOOK_SENDER) private readonly sender: WebhookSender,
  ) {
    // Long enough that a live attempt always ends (timeout) before another replica may take it over.
    this.leaseMs = config.WEBHOOK_DELIVERY_TIMEOUT_MS * 2 + 2_000;
    this.loop = new PollingLoop(
      () => this.tick(),
      config.WEBHOOK_POLL_INTERVAL_MS,
      (error) => logger.warn({ err: error }, 'could not claim due webhook deliveries; will retry'),
    );
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  /** Look for due deliveries now rather than at the next poll. */
  wake(): void {
    this.loop.wake();
  }

  /** Claims nothing more and lets the attempts in flight finish and be recorded. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.loop.stop();
    await Promise.all([...this.inFlight]);
  }

  private async tick(): Promise<void> {
    const free = this.config.WEBHOOK_CONCURRENCY - this.inFlight.size;
    if (free <= 0) return;
    const claimed = await claimDue(this.sql, free, this.config.WEBHOOK_CONCURRENCY_PER_ENDPOINT, this.leaseMs);
    this.backlog = claimed.length === free;
    for (const delivery of claimed) {
      const attempt: Promise<void> = this.attempt(delivery).finally(() => {
        this.inFlight.delete(attempt);
        if (this.backlog) this.wake();
      });
      this.inFlight.add(attempt);
    }
  }

  private async attempt(delivery: ClaimedDelivery): Promise<void> {
    const result = await this.send(delivery);
    try {
      await recordAttempt(
        this.sql,
        { delivery, responseStatus: result.status, responseMs: result.ms, error: result.error },
        this.completionOf(delivery, result),
      );
    } catch (error) {
      // The lease runs out and the delivery is attempted again: at least once, never lost.
      this.logger.error({ err: error, deliveryId: delivery.id }, 'could not record a webhook attempt');
    }
  }

  private async send(delivery: ClaimedDelivery): Promise<SendResult> {
    let secret: string;
    try {
      secret = this.secrets.open(delivery.secret_enc);
    } catch (error) {
      this.logger.error({ err: error, registrationId: delivery.registration_id }, 'cannot decrypt a signing secret');
      return { status: null, retryAfter: null, ms: 0, error: 'The signing secret could not be read.' };
    }
    const headers = {
      'service-event-id': delivery.id,
      'service-event-type': delivery.event_type,
      ...signatureHeaders(secret, delivery.id, delivery.body, Math.floor(Date.now() / 1000)),
    };
    return this.sender.send(delivery.url, delivery.body, headers);
  }

  private completionOf(delivery: ClaimedDelivery, result: SendResult): Completion {
    const outcome = classifyResponse(result.status, result.retryAfter);
    if (outcome.kind === 'delivered') return { kind: 'completed' };
    if (outcome.kind === 'rejected') return { kind: 'failed', disableRegistration: outcome.disableRegistration };
    const delayMs = nextRetryDelayMs(delivery.attempt_count, this.config.WEBHOOK_RETRY_SCHEDULE_SCALE, outcome.retryAfterMs);
    return delayMs === null ? { kind: 'failed', disableRegistration: false } : { kind: 'retry', delayMs };
  }
}
