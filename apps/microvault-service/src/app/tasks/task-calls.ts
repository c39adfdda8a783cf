import { MICROVAULT_OPERATION_BITS, type MicroVaultOperation, type MicroVaultTaskKind } from '@service/contracts';
import type { Hex } from 'viem';
import type { VaultCall } from '../chain/chain.client.js';

/** What a task stores as `input`: the validated request without the vault id and key. */
export type StrategyTaskInput = { allocations: { sourceId: string; targetBps: number }[]; idleTargetBps: number };
export type PauseTaskInput = { operation: MicroVaultOperation; paused: boolean };

/** The contract call a task makes. */
export function vaultCallOf(kind: MicroVaultTaskKind, input: unknown): VaultCall {
  if (kind === 'update_strategy') {
    const strategy = input as StrategyTaskInput;
    return {
      functionName: 'setStrategy',
      args: [
        strategy.allocations.map((entry) => entry.sourceId.toLowerCase() as Hex),
        strategy.allocations.map((entry) => entry.targetBps),
        strategy.idleTargetBps,
      ],
    };
  }
  const pause = input as PauseTaskInput;
  return { functionName: 'setPaused', args: [MICROVAULT_OPERATION_BITS[pause.operation], pause.paused] };
}
