import { randomUUID } from 'node:crypto';
import type { AllocationResponseDto, RebalanceObject } from '@service/contracts';
import type { Rebalance, Wallet } from '../../generated/prisma/client.js';
import type { Tx } from '../shared/db.js';
import { emitWalletEvent } from '../shared/events.js';
import type { Ledger } from '../shared/ledger.js';
import { refreshWalletStatus } from '../shared/wallet-status.js';
import { instructionsView, type Move, movesOf, outflows } from './instructions.js';

type Status = RebalanceObject['status'];

export function rebalanceObject(row: Rebalance): RebalanceObject {
  return {
    id: row.id,
    requestId: row.requestId,
    status: row.status as Status,
    allocations: row.allocations as unknown as RebalanceObject['allocations'],
    createdAt: row.createdAt.toISOString(),
    completedAt: row.completedAt?.toISOString() ?? null,
  };
}

export function allocationResponse(row: Rebalance): AllocationResponseDto {
  return {
    rebalanceId: row.id,
    requestId: row.requestId,
    status: row.status as Status,
    createdAt: row.createdAt.toISOString(),
    allocations: row.allocations as unknown as AllocationResponseDto['allocations'],
  };
}

async function announce(tx: Tx, row: Rebalance, observedAt: Date): Promise<void> {
  await emitWalletEvent(tx, { orgId: row.orgId, walletId: row.walletId, observedAt }, 'portfolio_wallet.rebalance.status_changed', {
    rebalance: rebalanceObject(row),
  });
}

/**
 * Creates a workflow in `created`, holding what each source gives up (as much as it has free now;
 * a plan's buys may be funded by its own sells), and announces it.
 */
export async function createRebalance(
  tx: Tx,
  input: { wallet: Wallet; ledger: Ledger; moves: Move[]; requestId?: string; now: Date },
): Promise<Rebalance> {
  const { wallet, ledger, moves, now } = input;
  const reservations: Record<string, string> = {};
  for (const [positionId, amount] of outflows(moves)) {
    const available = ledger.available(positionId);
    const held = available < amount ? (available > 0n ? available : 0n) : amount;
    if (held === 0n) continue;
    ledger.reserve(positionId, held);
    reservations[positionId] = held.toString();
  }
  const row = await tx.rebalance.create({
    data: {
      id: randomUUID(),
      walletId: wallet.id,
      orgId: wallet.orgId,
      requestId: input.requestId ?? randomUUID(),
      status: 'created',
      allocations: instructionsView(moves) as never,
      reservations,
      nextRunAt: now,
      createdAt: now,
    },
  });
  await ledger.save({ orgId: wallet.orgId, observedAt: now }, false);
  await announce(tx, row, now);
  return row;
}

function releaseAll(ledger: Ledger, row: Rebalance): void {
  for (const [positionId, amount] of Object.entries(row.reservations as Record<string, string>)) ledger.release(positionId, BigInt(amount));
}

/**
 * One step of a due workflow, under the wallet lock: `created` -> `processing` (the wallet shows
 * rebalance_active), then `processing` -> `completed` (amounts move, reservations are released)
 * or `failed`. Each step is one transaction, so a crash repeats the step and nothing else.
 */
export async function advanceRebalance(
  tx: Tx,
  input: { wallet: Wallet; ledger: Ledger; row: Rebalance; now: Date; processingMs: number },
): Promise<void> {
  const { wallet, ledger, row, now } = input;
  const scope = { orgId: wallet.orgId, observedAt: now };
  if (row.status === 'created') {
    const next = await tx.rebalance.update({ where: { id: row.id }, data: { status: 'processing', nextRunAt: new Date(now.getTime() + input.processingMs) } });
    await announce(tx, next, now);
    await refreshWalletStatus(tx, wallet, now);
    return;
  }
  releaseAll(ledger, row);
  const status: Status = ledger.applyAll(movesOf(row.allocations as never)) ? 'completed' : 'failed';
  const done = await tx.rebalance.update({ where: { id: row.id }, data: { status, completedAt: now } });
  await ledger.save(scope, true);
  if (status === 'completed') await ledger.announceBalance(scope);
  await announce(tx, done, now);
  await refreshWalletStatus(tx, wallet, now);
}
