import { unpublishedOutboxRows } from '@service/events';
import { TEST_DATABASE_URL } from '@service/testing';
import pg from 'pg';

const POLL_MS = 25;

/** What gvault's schema says of the allowlist follower and its events. */
export interface FollowerState {
  /** The lowest applied block over the follower's cursors (null before its first start). */
  readonly lastBlock: bigint | null;
  /** Events written to the outbox that the relay has not published yet. */
  readonly unpublished: number;
  /** `gvault.allowlist.updated` events written for the address asked about. */
  readonly eventsForAddress: number;
}

async function readState(client: pg.Client, schema: string, address: string): Promise<FollowerState> {
  const { rows } = await client.query<{ last_block: string | null; unpublished: number; events: number }>(
    `SELECT (SELECT min(last_block)::text FROM "${schema}".chain_cursors) AS last_block,
            (SELECT count(*)::int FROM ${unpublishedOutboxRows(schema)}) AS unpublished,
            (SELECT count(*)::int FROM "${schema}".outbox_events
              WHERE type = 'gvault.allowlist.updated' AND payload->>'address' = $1) AS events`,
    [address],
  );
  const [row] = rows;
  return {
    lastBlock: row?.last_block == null ? null : BigInt(row.last_block),
    unpublished: row?.unpublished ?? 0,
    eventsForAddress: row?.events ?? 0,
  };
}

/**
 * Waits until the follower has applied every block that has `confirmations` on a chain whose head
 * is `head`, and the relay has published every event it wrote. From then on nothing the chain held
 * at `head` can still become an event: the state an absence check waits for, instead of a sleep.
 * Resolves to that state for `address`.
 */
export async function followerSettled(
  schema: string,
  head: bigint,
  confirmations: number,
  address = '',
  timeoutMs = 10_000,
): Promise<FollowerState> {
  const confirmedHead = head - BigInt(confirmations - 1);
  const deadline = Date.now() + timeoutMs;
  // One connection for the whole wait, not one per look.
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    for (;;) {
      const state = await readState(client, schema, address);
      if (state.lastBlock !== null && state.lastBlock >= confirmedHead && state.unpublished === 0) return state;
      if (Date.now() > deadline)
        throw new Error(
          `the allowlist follower did not reach block ${confirmedHead}: ${JSON.stringify({ ...state, lastBlock: String(state.lastBlock) })}`,
        );
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  } finally {
    await client.end();
  }
}
