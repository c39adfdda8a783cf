import { type RequestCell, RequestSeries, counter } from '@service/metrics';

/** The route label of a request no route matched (a 404, or refused before routing). */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * `http_requests_total` and `http_request_duration_seconds` by route template (`/v2/wallets/:id`,
 * never the raw path), method and status. Cells are kept per route, method and status in nested
 * maps: an observation is three map lookups and a few additions, nothing allocated.
 */
export class HttpMetrics {
  private readonly series = RequestSeries.of({
    total: 'http_requests_total',
    duration: 'http_request_duration_seconds',
    help: 'HTTP requests answered, by route template, method and status.',
    labelNames: ['route', 'method', 'status'],
  });
  private readonly cells = new Map<string, Map<string, Map<number, RequestCell>>>();

  /**
   * `route` is the matched route's template (Fastify's `routeOptions.url`), undefined when no
   * route matched: those are one label value, whatever the path, so a scan of random paths adds
   * no series.
   */
  observe(route: string | undefined, method: string, status: number, seconds: number): void {
    const template = route ?? UNMATCHED_ROUTE;
    let byMethod = this.cells.get(template);
    if (!byMethod) this.cells.set(template, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map()));
    let cell = byStatus.get(status);
    if (!cell) byStatus.set(status, (cell = this.series.cell(template, method, String(status))));
    cell.observe(seconds);
  }
}

const rejections = counter({
  name: 'gateway_rate_limit_rejections_total',
  help: 'Requests refused with 429 by the rate limits, by class: read and write per principal, unauthenticated per client address.',
  labelNames: ['class'] as const,
});

/** The rate-limit rejection counters, created once per class. */
export const RATE_LIMIT_REJECTIONS = {
  read: rejections.labels('read'),
  write: rejections.labels('write'),
  unauthenticated: rejections.labels('unauthenticated'),
} as const;
