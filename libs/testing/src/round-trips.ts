import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import pg from 'pg';

/** Round trips to PostgreSQL counted by {@link countRoundTrips}. */
export interface RoundTrips {
  /** Every `pg` query call and every round trip `PgPoolSql` sends since the start or the last `reset` (each waits for its answer). */
  readonly count: number;
  reset(): void;
  /** Stops counting. */
  restore(): void;
}

/** Where `PgPoolSql` of `@service/sql` reports each round trip it sends (its `ROUND_TRIP_CHANNEL`). */
const SQL_ROUND_TRIPS = 'service.sql.round-trip';

/**
 * Counts the round trips every `pg` client and every `PgPoolSql` in this process makes from now
 * on, for a spec that holds a path to a number of them. Patches `pg.Client.prototype.query` and
 * listens to `PgPoolSql`'s round trips until `restore`. A statement text's first run on a
 * postgres.js connection costs one more round trip (it is described before it is bound), which
 * `PgPoolSql` does not report.
 */
export function countRoundTrips(): RoundTrips {
  const query = pg.Client.prototype.query;
  let count = 0;
  pg.Client.prototype.query = function (this: pg.Client, ...args: Parameters<typeof query>) {
    count += 1;
    return query.apply(this, args);
  } as typeof query;
  const onRoundTrip = (): void => {
    count += 1;
  };
  subscribe(SQL_ROUND_TRIPS, onRoundTrip);
  return {
    get count() {
      return count;
    },
    reset: () => {
      count = 0;
    },
    restore: () => {
      pg.Client.prototype.query = query;
      unsubscribe(SQL_ROUND_TRIPS, onRoundTrip);
    },
  };
}
