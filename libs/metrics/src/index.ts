import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The process's one Prometheus registry. Libraries declare their metrics on it through
 * {@link counter}, {@link gauge} and {@link histogram}, which hand back the metric already
 * declared under a name, so a module loaded twice (tests, two relays in one process) shares it
 * instead of failing; an app serves it all through {@link metricsText}.
 */
export const registry = new Registry();

/** Request/reply durations: 1 ms to 10 s. */
export const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Delays through a pipeline (outbox publish lag, webhook delivery): 10 ms to an hour. */
export const DELAY_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600];

interface MetricConfig<L extends string> {
  readonly name: string;
  readonly help: string;
  readonly labelNames?: readonly L[];
}

function existing<T>(name: string, type: new (...args: never[]) => T): T | undefined {
  const metric = registry.getSingleMetric(name);
  if (metric === undefined) return undefined;
  if (!(metric instanceof type)) throw new Error(`Metric ${name} is already declared with another type.`);
  return metric;
}

export function counter<L extends string = never>(config: MetricConfig<L>): Counter<L> {
  return (
    existing<Counter<L>>(config.name, Counter) ?? new Counter<L>({ ...config, labelNames: config.labelNames ?? [], registers: [registry] })
  );
}

export function gauge<L extends string = never>(config: MetricConfig<L>): Gauge<L> {
  return existing<Gauge<L>>(config.name, Gauge) ?? new Gauge<L>({ ...config, labelNames: config.labelNames ?? [], registers: [registry] });
}

export function histogram<L extends string = never>(config: MetricConfig<L> & { readonly buckets: readonly number[] }): Histogram<L> {
  return (
    existing<Histogram<L>>(config.name, Histogram) ??
    new Histogram<L>({ ...config, buckets: [...config.buckets], labelNames: config.labelNames ?? [], registers: [registry] })
  );
}

let processMetrics = false;

/** Node's process metrics (CPU, memory, event-loop lag, GC, handles), once per process. */
export function collectProcessMetrics(): void {
  if (processMetrics) return;
  processMetrics = true;
  collectDefaultMetrics({ register: registry });
}

type Sampler = () => Promise<void> | void;
const samplers = new Set<Sampler>();

/**
 * Runs `sample` before each scrape, to set gauges read from elsewhere (a COUNT, a JetStream
 * consumer's info): nothing runs while nobody scrapes. Samplers throttle themselves (see
 * {@link throttled}); one that fails leaves its gauges as they were. Returns the unregistration.
 */
export function onScrape(sample: Sampler): () => void {
  samplers.add(sample);
  return () => samplers.delete(sample);
}

/** `sample`, run at most once per `intervalMs` (later calls in the interval do nothing). */
export function throttled(sample: () => Promise<void>, intervalMs = 15_000): Sampler {
  let last = Number.NEGATIVE_INFINITY;
  return () => {
    const now = performance.now();
    if (now - last < intervalMs) return undefined;
    last = now;
    return sample();
  };
}

/** The Content-Type of {@link metricsText}. */
export const METRICS_CONTENT_TYPE = registry.contentType;

/** Every metric of the process in Prometheus's text format, samplers run first. */
export async function metricsText(): Promise<string> {
  await Promise.allSettled([...samplers].map(async (sample) => sample()));
  return registry.metrics();
}

/**
 * The outcome label of a request that got an error reply: the class of the error's HTTP status
 * (`error_4xx`, `error_5xx`), never the code or the message.
 */
export function errorOutcome(status: number | undefined): 'error_4xx' | 'error_5xx' {
  return status !== undefined && status >= 400 && status < 500 ? 'error_4xx' : 'error_5xx';
}

/** One label combination of a {@link RequestSeries}: plain numbers, updated without allocating. */
export class RequestCell {
  count = 0;
  sum = 0;
  /** Observations per bucket (not cumulative); the last slot is above the highest bound. */
  readonly buckets: number[];

  constructor(private readonly bounds: readonly number[]) {
    this.buckets = new Array<number>(bounds.length + 1).fill(0);
  }

  observe(seconds: number): void {
    this.count += 1;
    this.sum += seconds;
    let index = 0;
    while (index < this.bounds.length && seconds > (this.bounds[index] as number)) index += 1;
    this.buckets[index] = (this.buckets[index] as number) + 1;
  }
}

interface Exported {
  readonly name: string;
  readonly help: string;
  readonly type: 'counter' | 'histogram';
  readonly aggregator: 'sum';
  get(): {
    name: string;
    help: string;
    type: string;
    aggregator: 'sum';
    values: { metricName?: string; labels: Record<string, string | number>; value: number }[];
  };
}

const requestSeries = new Map<string, RequestSeries>();

/** The names of a {@link RequestSeries}: `<thing>s_total` and `<thing>_duration_seconds`. */
export interface SeriesNames {
  readonly total: string;
  readonly duration: string;
}

/**
 * A request counter (`…_total`) and a duration histogram (`…_seconds`) over the same labels, for
 * a hot path. prom-client's label children hash their labels and allocate on every observation;
 * a {@link RequestCell} is plain numbers the caller keeps, read only when Prometheus scrapes.
 */
export class RequestSeries {
  private readonly cells = new Map<string, { readonly labels: readonly string[]; readonly cell: RequestCell }>();

  private constructor(
    readonly name: string,
    duration: string,
    private readonly labelNames: readonly string[],
    private readonly bounds: readonly number[],
    help: string,
  ) {
    registry.registerMetric(this.exported(name, help, 'counter') as never);
    registry.registerMetric(this.exported(duration, `Duration of ${help.charAt(0).toLowerCase()}${help.slice(1)}`, 'histogram') as never);
  }

  /** The series whose counter is `total`, created on first use. */
  static of(
    config: SeriesNames & { readonly help: string; readonly labelNames: readonly string[]; readonly buckets?: readonly number[] },
  ): RequestSeries {
    let series = requestSeries.get(config.total);
    if (!series) {
      series = new RequestSeries(config.total, config.duration, config.labelNames, config.buckets ?? LATENCY_BUCKETS, config.help);
      requestSeries.set(config.total, series);
    }
    return series;
  }

  /** The cell of these label values (in `labelNames` order); callers keep it. */
  cell(...values: string[]): RequestCell {
    if (values.length !== this.labelNames.length) throw new Error(`${this.name} takes ${this.labelNames.length} label values.`);
    const key = values.join('\u0000');
    let entry = this.cells.get(key);
    if (!entry) {
      entry = { labels: values, cell: new RequestCell(this.bounds) };
      this.cells.set(key, entry);
    }
    return entry.cell;
  }

  private exported(name: string, help: string, type: 'counter' | 'histogram'): Exported {
    return {
      name,
      help,
      type,
      aggregator: 'sum',
      get: () => ({ name, help, type, aggregator: 'sum', values: type === 'counter' ? this.counterValues() : this.histogramValues(name) }),
    };
  }

  private labelsOf(values: readonly string[]): Record<string, string> {
    const labels: Record<string, string> = {};
    this.labelNames.forEach((label, index) => (labels[label] = values[index] as string));
    return labels;
  }

  private counterValues() {
    return [...this.cells.values()].map(({ labels, cell }) => ({ labels: this.labelsOf(labels), value: cell.count }));
  }

  private histogramValues(name: string) {
    return [...this.cells.values()].flatMap(({ labels, cell }) => {
      const base = this.labelsOf(labels);
      let cumulative = 0;
      const buckets = this.bounds.map((bound, index) => {
        cumulative += cell.buckets[index] as number;
        return { metricName: `${name}_bucket`, labels: { ...base, le: bound }, value: cumulative };
      });
      return [
        ...buckets,
        { metricName: `${name}_bucket`, labels: { ...base, le: '+Inf' }, value: cell.count },
        { metricName: `${name}_sum`, labels: base, value: cell.sum },
        { metricName: `${name}_count`, labels: base, value: cell.count },
      ];
    });
  }
}

/**
 * Requests by subject and outcome (a counter and a duration histogram): the cells of a
 * subject, one per outcome, are created on its first request and kept, so an observation is a
 * map lookup and a few additions.
 */
export class SubjectRequestMetrics<O extends string> {
  private readonly series: RequestSeries;
  private readonly bySubject = new Map<string, Record<O, RequestCell>>();

  constructor(
    config: SeriesNames & { readonly help: string },
    private readonly outcomes: readonly O[],
  ) {
    this.series = RequestSeries.of({ ...config, labelNames: ['subject', 'outcome'] });
  }

  /** Counts one request of `subject` that ended with `outcome` after `seconds`. */
  observe(subject: string, outcome: O, seconds: number): void {
    (this.bySubject.get(subject) ?? this.cellsOf(subject))[outcome].observe(seconds);
  }

  private cellsOf(subject: string): Record<O, RequestCell> {
    const cells = {} as Record<O, RequestCell>;
    for (const outcome of this.outcomes) cells[outcome] = this.series.cell(subject, outcome);
    this.bySubject.set(subject, cells);
    return cells;
  }
}
