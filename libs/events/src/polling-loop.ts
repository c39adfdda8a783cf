/**
 * Runs `tick` once at start, then again every `intervalMs` after the previous tick ended, or at once
 * when woken: a wake during a tick runs one more tick right after it. Never two ticks at a time.
 * Background workers (outbox relay, delivery dispatch, workflow steps, chain followers) poll to
 * pick up work whose signal was lost (a crash, another replica) and are woken for the rest.
 */
export class PollingLoop {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private halted = true;

  constructor(
    private readonly tick: () => Promise<void>,
    private readonly intervalMs: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** True once stopped: long ticks check it between steps to end early. */
  get stopped(): boolean {
    return this.halted;
  }

  start(): void {
    this.halted = false;
    this.schedule(0);
  }

  wake(): void {
    if (this.halted) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.schedule(0);
  }

  /** No new tick starts; resolves when the one in flight has ended. */
  async stop(): Promise<void> {
    this.halted = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.running = this.tick()
        .catch(this.onError)
        .finally(() => {
          this.running = undefined;
          if (this.halted) return;
          const next = this.again ? 0 : this.intervalMs;
          this.again = false;
          this.schedule(next);
        });
    }, delayMs);
    this.timer.unref();
  }
}
