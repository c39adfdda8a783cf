import { describe, expect, it } from '@jest/globals';
import { RequestSeries, SubjectRequestMetrics, counter, errorOutcome, metricsText, onScrape, throttled } from './index.js';

describe('RequestSeries', () => {
  it('exports a counter and a cumulative histogram with the labels given', async () => {
    const series = RequestSeries.of({
      total: 'test_series_requests_total',
      duration: 'test_series_request_duration_seconds',
      help: 'Requests of the test.',
      labelNames: ['route', 'status'],
      buckets: [0.1, 1],
    });
    series.cell('/a/:id', '200').observe(0.05);
    series.cell('/a/:id', '200').observe(0.5);
    series.cell('/a/:id', '200').observe(5);
    const text = await metricsText();
    expect(text).toContain('# TYPE test_series_requests_total counter');
    expect(text).toContain('test_series_requests_total{route="/a/:id",status="200"} 3');
    expect(text).toContain('# TYPE test_series_request_duration_seconds histogram');
    expect(text).toContain('test_series_request_duration_seconds_bucket{route="/a/:id",status="200",le="0.1"} 1');
    expect(text).toContain('test_series_request_duration_seconds_bucket{route="/a/:id",status="200",le="1"} 2');
    expect(text).toContain('test_series_request_duration_seconds_bucket{route="/a/:id",status="200",le="+Inf"} 3');
    expect(text).toContain('test_series_request_duration_seconds_count{route="/a/:id",status="200"} 3');
    expect(RequestSeries.of({ total: 'test_series_requests_total', duration: 'x', help: 'x', labelNames: ['route', 'status'] })).toBe(
      series,
    );
  });

  it('creates every outcome of a subject at once, at zero', async () => {
    const metrics = new SubjectRequestMetrics(
      { total: 'test_subject_requests_total', duration: 'test_subject_request_duration_seconds', help: 'Requests of the test.' },
      ['ok', 'timeout'] as const,
    );
    metrics.observe('gvault.health', 'ok', 0.002);
    const text = await metricsText();
    expect(text).toContain('test_subject_requests_total{subject="gvault.health",outcome="ok"} 1');
    expect(text).toContain('test_subject_requests_total{subject="gvault.health",outcome="timeout"} 0');
  });
});

describe('helpers', () => {
  it('hands back the metric already declared under a name', () => {
    expect(counter({ name: 'test_things_total', help: 'x' })).toBe(counter({ name: 'test_things_total', help: 'x' }));
  });

  it('samples gauges on scrape, throttled', async () => {
    let samples = 0;
    const stop = onScrape(throttled(async () => void (samples += 1), 60_000));
    await metricsText();
    await metricsText();
    stop();
    await metricsText();
    expect(samples).toBe(1);
  });

  it('labels an error by its status class only', () => {
    expect(errorOutcome(404)).toBe('error_4xx');
    expect(errorOutcome(503)).toBe('error_5xx');
    expect(errorOutcome(undefined)).toBe('error_5xx');
  });
});
