import type { AllocationGroup, PayoutLeg, PayoutStep } from '@service/contracts';
import { formatUsd } from '@service/money';
import type { Catalogue } from './catalogue/catalogue.js';
import { chainName } from './chains.js';
import type { PositionRow } from './ledger.js';
import { cashLabel, cashPositionId, isCashPositionId } from './positions.js';

/** Where a withdrawal goes. */
export interface Destination {
  readonly chain: string;
  readonly token: string;
  readonly address: string;
}

/** A source position and what it can give. */
export interface Source {
  readonly positionId: string;
  readonly available: bigint;
}

/**
 * The order sources are drawn on: cash already on the destination chain and token first (a plain
 * transfer), then other cash of the group, then yield sources from the largest, so a withdrawal
 * touches as few positions as it can.
 */
export function drawOrder(sources: Source[], destination: Destination): Source[] {
  const home = cashPositionId(destination.chain, destination.token);
  const rank = (source: Source) => (source.positionId === home ? 0 : isCashPositionId(source.positionId) ? 1 : 2);
  return sources
    .filter((source) => source.available > 0n)
    .sort(
      (a, b) =>
        rank(a) - rank(b) || (a.available === b.available ? (a.positionId < b.positionId ? -1 : 1) : a.available > b.available ? -1 : 1),
    );
}

/** How much each source gives: in draw order, each as much as it can until the amount is covered. */
export function drawAmounts(sources: Source[], destination: Destination, amount: bigint): { positionId: string; amount: bigint }[] {
  const draws: { positionId: string; amount: bigint }[] = [];
  let missing = amount;
  for (const source of drawOrder(sources, destination)) {
    if (missing <= 0n) break;
    const take = source.available < missing ? source.available : missing;
    draws.push({ positionId: source.positionId, amount: take });
    missing -= take;
  }
  return draws;
}

/** The positions of a wallet in one allocation group, with what each has free. */
export function sourcesIn(
  rows: PositionRow[],
  group: AllocationGroup,
  groupOf: (row: PositionRow) => AllocationGroup | undefined,
): Source[] {
  return rows.filter((row) => groupOf(row) === group).map((row) => ({ positionId: row.positionId, available: row.amount - row.reserved }));
}

const pendingStep = (label: string): PayoutStep => ({ label, status: 'pending', txHash: null, txStatus: null });

function sourceRef(positionId: string, catalogue: Catalogue): PayoutLeg['from'] {
  if (isCashPositionId(positionId)) return { kind: 'cash', id: positionId, label: cashLabel(positionId) };
  return { kind: 'yield_source', id: positionId, label: catalogue.find(positionId)?.name ?? positionId };
}

/** The steps of a leg from `from` to the destination: redeem first when the money sits in a yield source, then the transfer out. */
export function stepsOf(from: PayoutLeg['from'], destination: Destination): PayoutStep[] {
  const transfer = pendingStep(`Send ${destination.token.toUpperCase()} to ${destination.address} on ${chainName(destination.chain)}`);
  return from.kind === 'yield_source' ? [pendingStep(`Redeem from ${from.label}`), transfer] : [transfer];
}

/** A new leg in `planning` with its stable `id`. */
export function newLeg(
  id: string,
  draw: { positionId: string; amount: bigint },
  destination: Destination,
  catalogue: Catalogue,
  now: Date,
): PayoutLeg {
  const from = sourceRef(draw.positionId, catalogue);
  const steps = stepsOf(from, destination);
  return {
    id,
    status: 'planning',
    amountUsd: formatUsd(draw.amount),
    from,
    to: {
      kind: 'external_payout',
      id: destination.address,
      label: `${destination.token.toUpperCase()} on ${chainName(destination.chain)}`,
    },
    startedAt: now.toISOString(),
    completedAt: null,
    stepsCompleted: 0,
    stepsTotal: steps.length,
    steps,
  };
}
