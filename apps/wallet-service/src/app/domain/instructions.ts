import type { AllocationGroup, AllocationInstruction, AllocationInstructionDto } from '@service/contracts';
import { ServiceError } from '@service/errors';
import { formatUsd, parseUsd } from '@service/money';
import type { WalletChains } from './chains.js';
import { balanceFigures, insufficientFunds } from './errors.js';
import type { Ledger } from './ledger.js';
import { groupOfCash, isCashPositionId, parseCashPositionId } from './positions.js';

/** An accepted instruction: micro-dollars moved from one position to another. */
export interface Move {
  readonly from: string;
  readonly to: string;
  readonly amount: bigint;
}

/** The allocation group a position id belongs to, checking that it exists in this environment. */
function groupOf(positionId: string, env: WalletChains): AllocationGroup {
  if (isCashPositionId(positionId)) return groupOfCash(parseCashPositionId(positionId, env.allChains));
  return env.catalogue.get(positionId).allocationGroup;
}

function parseInstruction(raw: AllocationInstructionDto, index: number, env: WalletChains): Move {
  const { from, to } = raw;
  if (from === '' || to === '') {
    throw new ServiceError('validation_error', `allocations[${index}] needs from and to position ids.`);
  }
  const amount = parseUsd(raw.amountUsd, { field: `allocations[${index}].amountUsd` });
  if (amount <= 0n) throw new ServiceError('validation_error', `allocations[${index}].amountUsd must be greater than zero.`);
  if (from === to) throw new ServiceError('validation_error', `allocations[${index}] moves ${from} to itself.`);
  if (isCashPositionId(from) && isCashPositionId(to)) {
    throw new ServiceError(
      'validation_error',
      `allocations[${index}] moves cash to cash; allocate between cash and a yield source or between two yield sources.`,
    );
  }
  const fromGroup = groupOf(from, env);
  const toGroup = groupOf(to, env);
  if (fromGroup !== toGroup) {
    throw new ServiceError(
      'validation_error',
      `allocations[${index}] crosses allocation groups (${fromGroup} to ${toGroup}); there is no bridging.`,
    );
  }
  return { from, to, amount };
}

/**
 * Validates allocate instructions (a non-empty list of `from`/`to` strings, as the gateway
 * checked): position forms, known sources, groups, six-decimal amounts.
 */
export function parseInstructions(raw: readonly AllocationInstructionDto[], env: WalletChains): Move[] {
  return raw.map((instruction, index) => parseInstruction(instruction, index, env));
}

export function instructionsView(moves: readonly Move[]): AllocationInstruction[] {
  return moves.map(({ from, to, amount }) => ({ from, to, amountUsd: formatUsd(amount) }));
}

export function movesOf(instructions: readonly AllocationInstruction[]): Move[] {
  return instructions.map(({ from, to, amountUsd }) => ({ from, to, amount: parseUsd(amountUsd) }));
}

/** What each source position gives up across all moves. */
export function outflows(moves: readonly Move[]): Map<string, bigint> {
  const totals = new Map<string, bigint>();
  for (const move of moves) totals.set(move.from, (totals.get(move.from) ?? 0n) + move.amount);
  return totals;
}

/**
 * Holds what each source gives up across `moves` (as much as it has free now: a plan's buys may
 * be funded by its own sells); returns the reservations as stored, micro-dollars by position.
 */
export function reserveOutflows(ledger: Ledger, moves: readonly Move[]): Record<string, string> {
  const reservations: Record<string, string> = {};
  for (const [positionId, amount] of outflows(moves)) {
    const available = ledger.available(positionId);
    const held = available < amount ? (available > 0n ? available : 0n) : amount;
    if (held === 0n) continue;
    ledger.reserve(positionId, held);
    reservations[positionId] = held.toString();
  }
  return reservations;
}

/** Frees what {@link reserveOutflows} held. */
export function releaseReservations(ledger: Ledger, reservations: unknown): void {
  for (const [positionId, amount] of Object.entries(reservations as Record<string, string>)) ledger.release(positionId, BigInt(amount));
}

/**
 * Allocate's rules beyond the instructions themselves: the wallet does not rebalance by itself,
 * and each source has free what the moves take from it (`insufficient_funds`).
 */
export function checkAllocatable(
  wallet: { readonly id: string; readonly autoRebalance: boolean },
  ledger: Ledger,
  moves: readonly Move[],
): void {
  if (wallet.autoRebalance) {
    throw new ServiceError(
      'operation_not_supported',
      `Wallet ${wallet.id} rebalances automatically; change its targets with PATCH /v2/wallets/${wallet.id}/strategy instead.`,
    );
  }
  for (const [positionId, amount] of outflows(moves)) {
    const available = ledger.available(positionId);
    if (available < amount) {
      throw insufficientFunds(
        `Position ${positionId} has ${formatUsd(available)} USD available, less than the ${formatUsd(amount)} USD to move.`,
        balanceFigures(ledger.positions()),
      );
    }
  }
}
