import { describe, expect, it } from '@jest/globals';
import { metricsText } from '@service/metrics';
import { attemptBucket, observeAttempt, watchDueBacklog } from './delivery-metrics.js';

describe('webhook delivery metrics', () => {
  it('labels attempts with four buckets, never the attempt number itself', () => {
    expect([1, 2, 3, 5, 6, 40].map(attemptBucket)).toEqual(['1', '2', '3-5', '3-5', '6+', '6+']);
  });

  it('counts attempts by outcome and bucket, and times a delivered one from its event', async () => {
    const occurred = new Date(Date.now() - 1_500).toISOString();
    observeAttempt('retry_scheduled', 1, `{"id":"d","type":"t","createdAt":"${occurred}","data":{}}`);
    observeAttempt('delivered', 2, `{"id":"d","type":"t","createdAt":"${occurred}","data":{}}`);
    observeAttempt('delivered', 7, `{"event":"portfolio_wallet.status_changed","observedAt":"${occurred}"}`);
    const text = await metricsText();
    expect(text).toContain('webhook_delivery_attempts_total{status="retry_scheduled",attempt="1"} 1');
    expect(text).toContain('webhook_delivery_attempts_total{status="delivered",attempt="2"} 1');
    expect(text).toContain('webhook_delivery_attempts_total{status="delivered",attempt="6+"} 1');
    expect(text).toContain('webhook_delivery_latency_seconds_count 2');
    expect(text).toMatch(/webhook_delivery_latency_seconds_bucket\{le="1"\} 0\n/);
    expect(text).toMatch(/webhook_delivery_latency_seconds_bucket\{le="2.5"\} 2\n/);
  });

  it('samples the due backlog with one COUNT when scraped', async () => {
    const queries: string[] = [];
    const sql = {
      $queryRawUnsafe: async <T>(query: string) => (queries.push(query), [{ count: 42 }] as T),
      $executeRawUnsafe: async () => 0,
    };
    const stop = watchDueBacklog(sql);
    const text = await metricsText();
    stop();
    expect(text).toContain('webhook_deliveries_due 42');
    expect(queries).toHaveLength(1);
  });
});
