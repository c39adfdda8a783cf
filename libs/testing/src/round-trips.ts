import pg from 'pg';

/** Round trips to PostgreSQL counted by {@link countRoundTrips}. */
export interface RoundTrips {
  /** Every `pg` query call since the start or the last `reset` (each waits for its answer). */
  readonly count: number;
  reset(): void;
  /** Stops counting. */
  restore(): void;
}

/**
 * Counts the round trips every `pg` client in this process makes from now on, for a spec that
 * holds a path to a number of them. Patches `pg.Client.prototype.query` until `restore`.
 */
export function countRoundTrips(): RoundTrips {
  const query = pg.Client.prototype.query;
  let count = 0;
  pg.Client.prototype.query = function (this: pg.Client, ...args: Parameters<typeof query>) {
    count += 1;
    return query.apply(this, args);
  } as typeof query;
  return {
    get count() {
      return count;
    },
    reset: () => {
      count = 0;
    },
    restore: () => {
      pg.Client.prototype.query = query;
    },
  };
}
