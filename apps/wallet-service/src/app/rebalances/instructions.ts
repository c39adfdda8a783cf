import type { AllocationGroup, AllocationInstruction, AllocationInstructionDto } from '@service/contracts';
import { ServiceError } from '@service/errors';
import { formatUsd, parseUsd } from '@service/money';
import { groupOfCash, isCashPositionId, parseCashPositionId } from '../shared/positions.js';
import type { WalletEnvironment } from '../shared/wallet-environment.js';

/** An accepted instruction: micro-dollars moved from one position to another. */
export interface Move {
  readonly from: string;
  readonly to: string;
  readonly amount: bigint;
}

/** The allocation group a position id belongs to, checking that it exists in this environment. */
function groupOf(positionId: string, env: WalletEnvironment): AllocationGroup {
  if (isCashPositionId(positionId)) return groupOfCash(parseCashPositionId(positionId, env.allChains));
  return env.catalogue.get(positionId).allocationGroup;
}

function parseInstruction(raw: AllocationInstructionDto, index: number, env: WalletEnvironment): Move {
  const { from, to } = raw;
  if (from === '' || to === '') {
    throw new ServiceError('validation_error', `allocations[${index}] needs from and to position ids.`);
  }
  const amount = parseUsd(raw.amountUsd, { field: `allocations[${index}].amountUsd` });
  if (amount <= 0n) throw new ServiceError('validation_error', `allocations[${index}].amountUsd must be greater than zero.`);
  if (from === to) throw new ServiceError('validation_error', `allocations[${index}] moves ${from} to itself.`);
  if (isCashPositionId(from) && isCashPositionId(to)) {
    throw new ServiceError('validation_error', `allocations[${index}] moves cash to cash; allocate between cash and a yield source or between two yield sources.`);
  }
  const fromGroup = groupOf(from, env);
  const toGroup = groupOf(to, env);
  if (fromGroup !== toGroup) {
    throw new ServiceError('validation_error', `allocations[${index}] crosses allocation groups (${fromGroup} to ${toGroup}); there is no bridging.`);
  }
  return { from, to, amount };
}

/**
 * Validates allocate instructions (a non-empty list of `from`/`to` strings, as the gateway
 * checked): position forms, known sources, groups, six-decimal amounts.
 */
export function parseInstructions(raw: readonly AllocationInstructionDto[], env: WalletEnvironment): Move[] {
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
