import { randomUUID } from 'node:crypto';
import type { AccountingEntry } from '../domain/accounting-ledger/entries.js';
import type { BoundaryPosition, StoredEvent } from '../domain/accounting-ledger/summary.js';
import type { WalletDb } from './wallet-sql.js';
import type { Writes } from './writes.js';

/**
 * The accounting events of one wallet's movements (what `ledger.takeAccounting()` gave), in one
 * INSERT, in their order (`seq` follows it), as part of the statement's `writes`: written in the
 * transaction of the movement, so nothing is lost or doubled. The use case decides them; this
 * writes them. One array per column (`unnest`), so the statement has one shape whatever the
 * number of events, and each step's statement keeps the few shapes it had.
 */
export function addAccountingEvents(writes: Writes, input: { orgId: string; walletId: string; entries: readonly AccountingEntry[] }): void {
  const { entries } = input;
  if (entries.length === 0) return;
  const { bind } = writes;
  const column = <T>(pick: (entry: AccountingEntry) => T, cast: string) => bind(entries.map(pick), cast);
  const text = (value: bigint) => value.toString();
  writes.add(
    `INSERT INTO accounting_events (id, org_id, wallet_id, type, position_id, position_kind, amount, cost, realized, rate_bps, accrued_from,
       position_amount, position_accrued_at, open_cost, reference_type, reference_id, chain, token, tx_hash, occurred_at,
       cum_deposits, cum_payouts, cum_fees, cum_bought, cum_redeemed, cum_realized)
     SELECT u.id, ${bind(input.orgId, '::text')}, ${bind(input.walletId, '::uuid')}, u.type, u.position_id, u.position_kind, u.amount, u.cost,
            u.realized, u.rate_bps, u.accrued_from, u.position_amount, u.position_accrued_at, u.open_cost, u.reference_type, u.reference_id,
            u.chain, u.token, u.tx_hash, u.occurred_at, u.cum_deposits, u.cum_payouts, u.cum_fees, u.cum_bought, u.cum_redeemed, u.cum_realized
       FROM unnest(${column(() => randomUUID(), '::uuid[]')}, ${column((entry) => entry.type, '::text[]')},
                   ${column((entry) => entry.positionId, '::text[]')}, ${column((entry) => entry.positionKind, '::text[]')},
                   ${column((entry) => text(entry.amount), '::bigint[]')}, ${column((entry) => text(entry.cost), '::bigint[]')},
                   ${column((entry) => text(entry.realized), '::bigint[]')}, ${column((entry) => entry.rateBps, '::int[]')},
                   ${column((entry) => entry.accruedFrom?.toISOString() ?? null, '::timestamptz[]')},
                   ${column((entry) => text(entry.positionAmount), '::bigint[]')},
                   ${column((entry) => entry.positionAccruedAt.toISOString(), '::timestamptz[]')},
                   ${column((entry) => text(entry.openCost), '::bigint[]')}, ${column((entry) => entry.reference?.type ?? null, '::text[]')},
                   ${column((entry) => entry.reference?.id ?? null, '::text[]')}, ${column((entry) => entry.reference?.chain ?? null, '::text[]')},
                   ${column((entry) => entry.reference?.token ?? null, '::text[]')},
                   ${column((entry) => entry.reference?.txHash ?? null, '::text[]')},
                   ${column((entry) => entry.at.toISOString(), '::timestamptz[]')},
                   ${column((entry) => text(entry.totals.deposits), '::bigint[]')}, ${column((entry) => text(entry.totals.payouts), '::bigint[]')},
                   ${column((entry) => text(entry.totals.fees), '::bigint[]')}, ${column((entry) => text(entry.totals.bought), '::bigint[]')},
                   ${column((entry) => text(entry.totals.redeemed), '::bigint[]')}, ${column((entry) => text(entry.totals.realized), '::bigint[]')})
            WITH ORDINALITY AS u(id, type, position_id, position_kind, amount, cost, realized, rate_bps, accrued_from, position_amount,
                                 position_accrued_at, open_cost, reference_type, reference_id, chain, token, tx_hash, occurred_at,
                                 cum_deposits, cum_payouts, cum_fees, cum_bought, cum_redeemed, cum_realized, ordinal)
      ORDER BY u.ordinal`,
  );
}

/** The wallets a report covers: one wallet of the organization (none: it is not the organization's), or all of them. */
const SCOPE = `SELECT w.id FROM wallets w WHERE w.org_id = $1::text AND ($2::uuid IS NULL OR w.id = $2::uuid)`;

/** Each position's state and running totals after its last event before `t` (by time, then order of writing). */
function boundary(t: string): string {
  return `(SELECT coalesce(json_agg(json_build_array(p.wallet_id::text, p.position_id, p.kind, e.position_amount::text,
                  floor(extract(epoch FROM e.position_accrued_at) * 1000)::float8, e.open_cost::text,
                  json_build_array(e.cum_deposits::text, e.cum_payouts::text, e.cum_fees::text, e.cum_bought::text,
                                   e.cum_redeemed::text, e.cum_realized::text))), '[]'::json)
             FROM positions p
             CROSS JOIN LATERAL (SELECT position_amount, position_accrued_at, open_cost, cum_deposits, cum_payouts, cum_fees, cum_bought,
                                        cum_redeemed, cum_realized
                                   FROM accounting_events e
                                  WHERE e.wallet_id = p.wallet_id AND e.position_id = p.position_id AND e.occurred_at < ${t}
                                  ORDER BY e.occurred_at DESC, e.seq DESC LIMIT 1) e
            WHERE p.wallet_id IN (${SCOPE}))`;
}

export interface PeriodRead {
  /** Whether the scope names a wallet the organization holds (always for the organization). */
  found: boolean;
  start: BoundaryPosition[];
  end: BoundaryPosition[];
  /** Every position now beside its last event (null: none): what reconciliation compares. */
  current: { walletId: string; positionId: string; kind: string; amount: bigint; accruedAtMs: number; last: BoundaryPosition | null }[];
}

type StoredBoundary = [
  walletId: string,
  positionId: string,
  kind: string,
  amount: string,
  accruedAtMs: number,
  openCost: string,
  totals: [deposits: string, payouts: string, fees: string, bought: string, redeemed: string, realized: string] | null,
];

function boundaryOf([walletId, positionId, kind, amount, accruedAtMs, openCost, totals]: StoredBoundary): BoundaryPosition {
  const [deposits = '0', payouts = '0', fees = '0', bought = '0', redeemed = '0', realized = '0'] = totals ?? [];
  return {
    walletId,
    positionId,
    kind,
    amount: BigInt(amount),
    accruedAt: new Date(accruedAtMs),
    openCost: BigInt(openCost),
    totals: {
      deposits: BigInt(deposits),
      payouts: BigInt(payouts),
      fees: BigInt(fees),
      bought: BigInt(bought),
      redeemed: BigInt(redeemed),
      realized: BigInt(realized),
    },
  };
}

/**
 * One statement (one snapshot) for a period's report: the positions (state and running totals)
 * at its start and at its end, and every position now beside its last event. The flows of the
 * period are the differences of the running totals (`flowsBetween`), so the cost is three index
 * probes per position (`accounting_events (wallet_id, position_id, occurred_at, seq)`, and the
 * last by `(wallet_id, position_id, seq)`), whatever the number of events in or before the period
 * or of other wallets.
 */
export async function readPeriod(
  db: WalletDb,
  input: { orgId: string; walletId: string | null; start: Date; end: Date },
): Promise<PeriodRead> {
  const rows = await db.$queryRawUnsafe<
    {
      found: boolean;
      start: StoredBoundary[];
      end: StoredBoundary[];
      current: unknown[][];
    }[]
  >(
    `SELECT EXISTS (${SCOPE}) AS found,
            ${boundary('$3::timestamptz')} AS start,
            ${boundary('$4::timestamptz')} AS "end",
            (SELECT coalesce(json_agg(json_build_array(p.wallet_id::text, p.position_id, p.kind, p.amount::text,
                    floor(extract(epoch FROM p.accrued_at) * 1000)::float8, e.position_amount::text,
                    floor(extract(epoch FROM e.position_accrued_at) * 1000)::float8, e.open_cost::text)), '[]'::json)
               FROM positions p
               LEFT JOIN LATERAL (SELECT position_amount, position_accrued_at, open_cost FROM accounting_events e
                                   WHERE e.wallet_id = p.wallet_id AND e.position_id = p.position_id
                                   ORDER BY e.seq DESC LIMIT 1) e ON true
              WHERE p.wallet_id IN (${SCOPE})) AS current`,
    input.orgId,
    input.walletId,
    input.start.toISOString(),
    input.end.toISOString(),
  );
  const row = rows[0];
  return {
    found: row?.found ?? false,
    start: (row?.start ?? []).map(boundaryOf),
    end: (row?.end ?? []).map(boundaryOf),
    current: (row?.current ?? []).map((item) => {
      const [walletId, positionId, kind, amount, accruedAtMs, lastAmount, lastAccruedAtMs, lastOpenCost] = item as [
        string,
        string,
        string,
        string,
        number,
        string | null,
        number | null,
        string | null,
      ];
      return {
        walletId,
        positionId,
        kind,
        amount: BigInt(amount),
        accruedAtMs,
        last:
          lastAmount === null
            ? null
            : boundaryOf([walletId, positionId, kind, lastAmount, lastAccruedAtMs ?? 0, lastOpenCost ?? '0', null]),
      };
    }),
  };
}

/**
 * A page of the scope's accounting events in `[startAt, endAt)`, newest first (by the order they
 * were written: `seq`), after the cursor's `seq`; `types` restricts them. One more than `limit`
 * tells whether another page follows. With each, its wallet's label.
 */
export async function listAccountingEvents(
  db: WalletDb,
  input: {
    orgId: string;
    walletId: string | null;
    startAt: Date | null;
    endAt: Date | null;
    types: readonly string[] | null;
    beforeSeq: bigint | null;
    limit: number;
  },
): Promise<{ found: boolean; events: StoredEvent[] }> {
  const rows = await db.$queryRawUnsafe<
    (Omit<StoredEvent, 'seq' | 'walletLabel'> & { seq: string; found: boolean; label: string | null })[]
  >(
    `SELECT EXISTS (${SCOPE}) AS found, e.seq::text AS seq, e.id::text AS id, e.wallet_id::text AS "walletId", w.label, e.type,
            e.position_id AS "positionId", e.position_kind AS "positionKind", e.amount::text AS amount, e.cost::text AS cost,
            e.realized::text AS realized, e.rate_bps AS "rateBps", e.reference_type AS "referenceType", e.reference_id AS "referenceId",
            e.chain, e.token, e.tx_hash AS "txHash", e.occurred_at AS "occurredAt", e.created_at AS "createdAt"
       FROM (SELECT 1) one
       LEFT JOIN accounting_events e ON e.org_id = $1::text AND e.wallet_id IN (${SCOPE})
            AND ($3::timestamptz IS NULL OR e.occurred_at >= $3::timestamptz) AND ($4::timestamptz IS NULL OR e.occurred_at < $4::timestamptz)
            AND ($5::text[] IS NULL OR e.type = ANY($5::text[])) AND ($6::bigint IS NULL OR e.seq < $6::bigint)
       LEFT JOIN wallets w ON w.id = e.wallet_id
      ORDER BY e.seq DESC NULLS LAST
      LIMIT $7::int`,
    input.orgId,
    input.walletId,
    input.startAt?.toISOString() ?? null,
    input.endAt?.toISOString() ?? null,
    input.types,
    input.beforeSeq?.toString() ?? null,
    input.limit + 1,
  );
  const found = rows[0]?.found ?? false;
  return {
    found,
    events: rows
      .filter((row) => typeof row.seq === 'string')
      .map(({ label, ...row }) => ({ ...row, walletLabel: label, seq: BigInt(row.seq) })),
  };
}
