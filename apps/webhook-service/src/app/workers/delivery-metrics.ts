import { DELAY_BUCKETS, counter, gauge, histogram, onScrape, throttled } from '@service/metrics';
import type { SqlExecutor } from '@service/sql';

/** What became of an attempt: delivered, a retry scheduled, or failed for good. */
export type AttemptOutcome = 'delivered' | 'retry_scheduled' | 'failed';

const attempts = counter({
  name: 'webhook_delivery_attempts_total',
  help: 'Webhook delivery attempts, by outcome (delivered, retry_scheduled, failed) and attempt bucket (1, 2, 3-5, 6+).',
  labelNames: ['status', 'attempt'] as const,
});
const latency = histogram({
  name: 'webhook_delivery_latency_seconds',
  help: 'Time from the event occurring to its webhook being delivered (2xx), retries included.',
  buckets: DELAY_BUCKETS,
});
const due = gauge({
  name: 'webhook_deliveries_due',
  help: 'Deliveries due now (pending or retry scheduled, next attempt in the past) and not yet sent: the dispatcher backlog, sampled at most every 15 s.',
});

/** An attempt number as one of four label values, so a receiver failing for days adds no series. */
export function attemptBucket(attempt: number): '1' | '2' | '3-5' | '6+' {
  if (attempt <= 1) return '1';
  if (attempt === 2) return '2';
  return attempt <= 5 ? '3-5' : '6+';
}

/** When the event of a delivery body occurred: `createdAt` (gvault envelope) or `observedAt` (wallet payloads). */
const OCCURRED = /"(?:createdAt|observedAt)":"([^"]{10,40})"/;

/**
 * Counts an attempt by outcome and attempt bucket; a delivered one also observes how long after
 * its event it arrived.
 */
export function observeAttempt(outcome: AttemptOutcome, attempt: number, body: string): void {
  attempts.labels(outcome, attemptBucket(attempt)).inc();
  if (outcome !== 'delivered') return;
  const occurred = OCCURRED.exec(body)?.[1];
  const at = occurred === undefined ? Number.NaN : Date.parse(occurred);
  if (Number.isFinite(at)) latency.observe(Math.max(0, Date.now() - at) / 1000);
}

/**
 * Samples the due backlog (what KEDA's prometheus trigger scales the dispatcher on) when
 * Prometheus scrapes, at most every 15 s. Returns the unregistration.
 */
export function watchDueBacklog(sql: SqlExecutor): () => void {
  return onScrape(
    throttled(async () => {
      const [row] = await sql.$queryRawUnsafe<{ count: number }[]>(
        `SELECT count(*)::int AS count FROM deliveries WHERE status IN ('pending', 'retry_scheduled') AND next_attempt_at <= now()`,
      );
      due.set(row?.count ?? 0);
    }),
  );
}
