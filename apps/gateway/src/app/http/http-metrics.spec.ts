import { describe, expect, it } from '@jest/globals';
import { metricsText } from '@service/metrics';
import { HttpMetrics, RATE_LIMIT_REJECTIONS, UNMATCHED_ROUTE } from './http-metrics.js';

describe('HttpMetrics', () => {
  it('labels a request by its route template, method and status, never by its path', async () => {
    const metrics = new HttpMetrics();
    metrics.observe('/v2/wallets/:id', 'GET', 200, 0.004);
    metrics.observe('/v2/wallets/:id', 'GET', 200, 0.02);
    metrics.observe('/v2/wallets/:id', 'GET', 404, 0.003);
    const text = await metricsText();
    expect(text).toContain('http_requests_total{route="/v2/wallets/:id",method="GET",status="200"} 2');
    expect(text).toContain('http_requests_total{route="/v2/wallets/:id",method="GET",status="404"} 1');
    expect(text).toContain('http_request_duration_seconds_bucket{route="/v2/wallets/:id",method="GET",status="200",le="0.005"} 1');
    expect(text).toContain('http_request_duration_seconds_count{route="/v2/wallets/:id",method="GET",status="200"} 2');
  });

  it('puts every request no route matched under one label value, whatever its path', async () => {
    const metrics = new HttpMetrics();
    for (let index = 0; index < 5; index += 1) metrics.observe(undefined, 'GET', 404, 0.001);
    const text = await metricsText();
    expect(UNMATCHED_ROUTE).toBe('unmatched');
    expect(text).toContain('http_requests_total{route="unmatched",method="GET",status="404"} 5');
  });

  it('counts rate-limit rejections by endpoint class', async () => {
    RATE_LIMIT_REJECTIONS.write.inc();
    expect(await metricsText()).toContain('gateway_rate_limit_rejections_total{class="write"} 1');
  });
});
