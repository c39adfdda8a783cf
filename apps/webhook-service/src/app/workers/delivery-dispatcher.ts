import { type BeforeApplicationShutdown, Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { PollingLoop } from '@service/events';
import { SERVICE_CONFIG, SERVICE_LOGGER } from '@service/service-runtime';
import { endSpan, SpanKind, startSpan } from '@service/tracing';
import type { Logger } from 'pino';
import type { WebhookConfig } from '../../config.js';
import { classifyResponse, nextRetryDelayMs } from '../domain/retry-policy.js';
import type { SecretBox } from '../domain/secret-box.js';
import { signatureHeaders } from '../domain/signature.js';
import { SECRET_BOX, WEBHOOK_SENDER } from '../injection.js';
import { type AttemptOutcome, observeAttempt, watchDueBacklog } from './delivery-metrics.js';
import type { SendResult, WebhookSender } from '../receivers/sender.js';
import { AttemptRecorder } from '../repositories/attempt-recorder.js';
import { type ClaimedDelivery, type Completion, claimDue } from '../repositories/delivery-store.js';
import { DispatchSql } from '../repositories/pg-sql.js';

/** Most finished attempts written in one statement. */
const RECORD_BATCH = 128;

/** What a delivery of a registration deleted after it was recorded gets instead of being sent. */
const REGISTRATION_DELETED: SendResult = {
  status: null,
  retryAfter: null,
  ms: 0,
  error: 'The registration was deleted; nothing was sent.',
};

/** Slow receivers one replica remembers at most; past that the longest remembered is forgotten. */
const SLOW_RECEIVERS_KEPT = 10_000;

/** The metric label of each way an attempt is recorded. */
const OUTCOME: Record<Completion['kind'], AttemptOutcome> = { completed: 'delivered', retry: 'retry_scheduled', failed: 'failed' };

/**
 * Sends due deliveries. Each replica claims what it has free slots for, runs every attempt on its
 * own (one slow receiver holds one slot, not the loop) and looks again when woken (new
 * deliveries, a slot freed while the last claim left due rows behind) or at the poll interval
 * (retries coming due, leases of crashed replicas running out).
 *
 * Finished attempts are written in batches ({@link AttemptRecorder}): those ending in one turn
 * together, at once unless a batch is being written, else in the next batch. An endpoint's slot
 * frees up when its receiver answers: the next claim may take it while the attempt is still being
 * written (the lease keeps that delivery from being claimed again).
 *
 * A claim keeps to the per-endpoint and per-organization caps across replicas and takes the
 * organizations with due deliveries in turn ({@link claimDue}). A receiver that holds connections:
 * once an attempt to it is cut at the delivery timeout, this replica gives its next attempts the
 * shorter `WEBHOOK_SLOW_RECEIVER_TIMEOUT_MS` until one is answered within it, so it holds its
 * organization's slots for less time.
 */
@Injectable()
export class DeliveryDispatcher implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly inFlight = new Set<Promise<void>>();
  /** Requests of this replica in flight (claimed, the receiver has not answered), per registration. */
  private readonly inFlightTo = new Map<string, number>();
  /** Attempts whose receiver has answered and which are not written yet: their endpoint slots are free. */
  private readonly answered = new Set<string>();
  /** Registrations whose last attempt from this replica was cut at its timeout, longest remembered first. */
  private readonly slow = new Set<string>();
  private readonly leaseMs: number;
  private readonly loop: PollingLoop;
  private readonly recorder: AttemptRecorder;
  /** Due rows may be waiting that this replica did not take: claim again when a slot frees up. */
  private backlog = false;
  private unwatch: (() => void) | undefined;

  constructor(
    private readonly sql: DispatchSql,
    @Inject(SERVICE_CONFIG) private readonly config: WebhookConfig,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
    @Inject(SECRET_BOX) private readonly secrets: SecretBox,
    @Inject(WEBHOOK_SENDER) private readonly sender: WebhookSender,
  ) {
    // Long enough that a live attempt always ends (timeout) before another replica may take it over.
    this.leaseMs = config.WEBHOOK_DELIVERY_TIMEOUT_MS * 2 + 2_000;
    this.recorder = new AttemptRecorder(sql, { maxBatch: RECORD_BATCH });
    this.loop = new PollingLoop(
      () => this.tick(),
      config.WEBHOOK_POLL_INTERVAL_MS,
      (error) => logger.warn({ err: error }, 'could not claim due webhook deliveries; will retry'),
    );
  }

  onApplicationBootstrap(): void {
    this.loop.start();
    this.unwatch = watchDueBacklog(this.sql);
  }

  /**
   * Look for due deliveries now rather than at the next poll. Given the registrations that just
   * got deliveries: when this replica already runs as many attempts to each of them as the
   * per-endpoint cap allows, a claim now could not take them; one follows when an attempt ends.
   */
  wake(registrations?: readonly string[]): void {
    const cap = this.config.WEBHOOK_CONCURRENCY_PER_ENDPOINT;
    if (registrations && registrations.length > 0 && registrations.every((id) => (this.inFlightTo.get(id) ?? 0) >= cap)) {
      this.backlog = true;
      return;
    }
    this.loop.wake();
  }

  /** Claims nothing more and lets the attempts in flight finish and be recorded. */
  async beforeApplicationShutdown(): Promise<void> {
    this.unwatch?.();
    await this.loop.stop();
    await Promise.all([...this.inFlight]);
  }

  private async tick(): Promise<void> {
    const free = this.config.WEBHOOK_CONCURRENCY - this.inFlight.size;
    if (free <= 0) {
      this.backlog = true;
      return;
    }
    const caps = {
      perEndpoint: this.config.WEBHOOK_CONCURRENCY_PER_ENDPOINT,
      perOrganization: this.config.WEBHOOK_CONCURRENCY_PER_ORGANIZATION,
    };
    const { deliveries, more } = await claimDue(this.sql, free, caps, this.leaseMs, [...this.answered]);
    this.backlog = more;
    for (const delivery of deliveries) {
      const registration = delivery.registration_id;
      this.inFlightTo.set(registration, (this.inFlightTo.get(registration) ?? 0) + 1);
      const attempt: Promise<void> = this.attempt(delivery).finally(() => {
        this.inFlight.delete(attempt);
        // Written (or its lease left to run out): it counts from its lease again, if at all.
        this.answered.delete(delivery.id);
        if (this.backlog) this.loop.wake();
      });
      this.inFlight.add(attempt);
    }
  }

  /**
   * The receiver has answered (or nothing was sent): the endpoint's slot is free for the next
   * claim, while the attempt waits to be written with others.
   */
  private answer(delivery: ClaimedDelivery): void {
    const registration = delivery.registration_id;
    const left = (this.inFlightTo.get(registration) ?? 1) - 1;
    if (left > 0) this.inFlightTo.set(registration, left);
    else this.inFlightTo.delete(registration);
    this.answered.add(delivery.id);
    if (this.backlog) this.loop.wake();
  }

  private async attempt(delivery: ClaimedDelivery): Promise<void> {
    // Its own trace (an attempt may come hours later), linked to the request that caused the event.
    const span = startSpan('webhook delivery', {
      kind: SpanKind.CLIENT,
      root: true,
      links: [delivery.trace_context],
      attributes: {
        'webhook.delivery.id': delivery.id,
        'webhook.event.type': delivery.event_type,
        'webhook.attempt': delivery.attempt_count,
      },
    });
    let result: SendResult;
    try {
      result = delivery.registration_deleted ? REGISTRATION_DELETED : await this.send(delivery);
    } finally {
      this.answer(delivery);
    }
    if (result !== REGISTRATION_DELETED) this.noteTimeliness(delivery.registration_id, result);
    if (result.status !== null) span?.setAttribute('http.response.status_code', result.status);
    endSpan(span, result.detail ?? result.error ?? undefined);
    if (result.detail)
      this.logger.debug(
        { deliveryId: delivery.id, registrationId: delivery.registration_id, shown: result.error, detail: result.detail },
        'webhook attempt not answered',
      );
    try {
      const completion = this.completionOf(delivery, result);
      await this.recorder.record({ delivery, responseStatus: result.status, responseMs: result.ms, error: result.error }, completion);
      observeAttempt(OUTCOME[completion.kind], delivery.attempt_count, delivery.body);
    } catch (error) {
      // The lease runs out and the delivery is attempted again: at least once, never lost.
      this.logger.error({ err: error, deliveryId: delivery.id }, 'could not record a webhook attempt');
    }
  }

  private async send(delivery: ClaimedDelivery): Promise<SendResult> {
    const binding = { registrationId: delivery.registration_id, orgId: delivery.org_id };
    let secret: string;
    let previous: string | null;
    try {
      secret = this.secrets.open(delivery.secret_enc, binding);
      previous = delivery.previous_secret_enc === null ? null : this.secrets.open(delivery.previous_secret_enc, binding);
    } catch (error) {
      this.logger.error({ err: error, registrationId: delivery.registration_id }, 'cannot decrypt a signing secret');
      return { status: null, retryAfter: null, ms: 0, error: 'The signing secret could not be read.' };
    }
    const headers = {
      'service-event-id': delivery.id,
      'service-event-type': delivery.event_type,
      ...signatureHeaders(secret, delivery.id, delivery.body, Math.floor(Date.now() / 1000), previous),
    };
    return this.sender.send(delivery.url, delivery.body, headers, this.timeoutFor(delivery.registration_id));
  }

  /** The full delivery timeout, or the shorter one for a receiver whose last attempt timed out. */
  private timeoutFor(registration: string): number {
    const full = this.config.WEBHOOK_DELIVERY_TIMEOUT_MS;
    return this.slow.has(registration) ? Math.min(this.config.WEBHOOK_SLOW_RECEIVER_TIMEOUT_MS, full) : full;
  }

  /** Cut at its timeout: slow from now on; answered (any status): in time again. Other failures change nothing. */
  private noteTimeliness(registration: string, result: SendResult): void {
    if (result.timedOut) {
      this.slow.delete(registration);
      this.slow.add(registration);
      if (this.slow.size > SLOW_RECEIVERS_KEPT) this.slow.delete(this.slow.values().next().value as string);
    } else if (result.status !== null) {
      this.slow.delete(registration);
    }
  }

  private completionOf(delivery: ClaimedDelivery, result: SendResult): Completion {
    if (result === REGISTRATION_DELETED) return { kind: 'failed', disableRegistration: false };
    const outcome = classifyResponse(result.status, result.retryAfter);
    if (outcome.kind === 'delivered') return { kind: 'completed' };
    if (outcome.kind === 'rejected') return { kind: 'failed', disableRegistration: outcome.disableRegistration };
    const delayMs = nextRetryDelayMs(delivery.attempt_count, this.config.WEBHOOK_RETRY_SCHEDULE_SCALE, outcome.retryAfterMs);
    return delayMs === null ? { kind: 'failed', disableRegistration: false } : { kind: 'retry', delayMs };
  }
}
