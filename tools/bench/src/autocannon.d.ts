/** The part of autocannon 8's programmatic API the bench uses (the package ships no types). */
declare module 'autocannon' {
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    pipelining?: number;
    timeout?: number;
    workers?: number;
    method?: string;
    headers?: Record<string, string>;
    expectBody?: string;
    /**
     * Requests each connection sends in turn, as plain objects (functions do not cross to worker
     * threads: with `workers`, `setupRequest` is the path of a module that exports one).
     */
    requests?: { method?: string; path?: string; headers?: Record<string, string>; setupRequest?: string; [field: string]: unknown }[];
  }

  interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p99: number;
    p99_9: number;
    totalCount?: number;
    sent?: number;
  }

  interface Result {
    duration: number;
    errors: number;
    timeouts: number;
    mismatches: number;
    non2xx: number;
    resets: number;
    '2xx': number;
    statusCodeStats: Record<string, { count: number }>;
    latency: Histogram & { totalCount: number };
    requests: Histogram & { sent: number };
    throughput: Histogram;
  }

  interface Instance {
    stop(): void;
  }

  function autocannon(options: Options, callback: (error: Error | null, result: Result) => void): Instance;
  export default autocannon;
  export type { Options, Result };
}
