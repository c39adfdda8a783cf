import { ServiceError } from '@service/errors';

/**
 * At most `limit` tasks at once; later ones wait in arrival order, at most `maxWaiting` of them.
 * A task past that is refused at once as a retryable 503: under a flood the caller learns the
 * dependency is saturated instead of queueing without bound.
 */
export class ConcurrencyLimit {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly limit: number,
    private readonly maxWaiting: number,
  ) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) {
      if (this.waiting.length >= this.maxWaiting) {
        throw new ServiceError('service_temporarily_unavailable', 'Too many credentials are being verified; retry shortly.');
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running += 1;
    }
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}
