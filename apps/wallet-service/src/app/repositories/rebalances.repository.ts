import { randomUUID } from 'node:crypto';
import type { Rebalance } from '../../generated/prisma/client.js';
import { instructionsView, type Move, reserveOutflows } from '../domain/instructions.js';
import type { Ledger } from '../domain/ledger.js';
import { rebalanceObject, type RebalanceStatus } from '../domain/rebalance-view.js';
import type { Tx } from './db.js';
import { emitWalletEvent } from './events.repository.js';
import { saveLedger } from './positions.repository.js';

export async function announceRebalance(tx: Tx, row: Rebalance, observedAt: Date): Promise<void> {
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
  input: { wallet: { id: string; orgId: string }; ledger: Ledger; moves: Move[]; requestId?: string; now: Date },
): Promise<Rebalance> {
  const { wallet, ledger, moves, now } = input;
  const reservations = reserveOutflows(ledger, moves);
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
  await saveLedger(tx, ledger, { orgId: wallet.orgId, observedAt: now }, false);
  await announceRebalance(tx, row, now);
  return row;
}

export function getRebalance(tx: Tx, rebalanceId: string): Promise<Rebalance> {
  return tx.rebalance.findUniqueOrThrow({ where: { id: rebalanceId } });
}

export function startProcessing(tx: Tx, rebalanceId: string, nextRunAt: Date): Promise<Rebalance> {
  return tx.rebalance.update({ where: { id: rebalanceId }, data: { status: 'processing', nextRunAt } });
}

export function finishRebalance(tx: Tx, rebalanceId: string, status: RebalanceStatus, now: Date): Promise<Rebalance> {
  return tx.rebalance.update({ where: { id: rebalanceId }, data: { status, completedAt: now } });
}

/** Workflows due to take their next step, oldest first. */
export function findDueRebalances(db: Tx, now: Date, take: number): Promise<{ id: string; orgId: string; walletId: string }[]> {
  return db.rebalance.findMany({
    where: { status: { in: ['created', 'processing'] }, nextRunAt: { lte: now } },
    select: { id: true, orgId: true, walletId: true },
    orderBy: { createdAt: 'asc' },
    take,
  });
}
