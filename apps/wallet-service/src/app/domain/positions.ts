import type { AllocationGroup, WalletToken } from '@service/contracts';
import { ServiceError } from '@service/errors';
import { chainName, familyOf } from './chains.js';

export const CASH_PREFIX = 'cash:';

/** Which stablecoins each chain family carries: TRON only USDT, Solana and Stellar only USDC. */
const TOKENS_BY_FAMILY: Record<ReturnType<typeof familyOf>, readonly WalletToken[]> = {
  evm: ['usdc', 'usdt'],
  solana: ['usdc'],
  tron: ['usdt'],
  stellar: ['usdc'],
};

export interface CashPosition {
  readonly chain: string;
  readonly token: WalletToken;
}

export function isCashPositionId(id: string): boolean {
  return id.startsWith(CASH_PREFIX);
}

export function cashPositionId(chain: string, token: string): string {
  return `${CASH_PREFIX}${chain}:${token}`;
}

export function tokensOf(chain: string): readonly WalletToken[] {
  return TOKENS_BY_FAMILY[familyOf(chain)];
}

/** How a cash position is named: "USDC on Ethereum Sepolia". */
export function cashLabel(positionId: string): string {
  const [, chain = '', token = 'usdc'] = positionId.split(':');
  return `${token.toUpperCase()} on ${chainName(chain)}`;
}

/** Checks a chain and token pair against the wallet's chains: `unsupported_chain` / `unsupported_token`. */
export function checkChainToken(chain: string, token: string, chains: readonly string[]): CashPosition {
  if (!chains.includes(chain)) {
    throw new ServiceError('unsupported_chain', `Chain ${chain} is not one of this environment's wallet chains (${chains.join(', ')}).`);
  }
  const tokens = tokensOf(chain);
  if (!(tokens as readonly string[]).includes(token)) {
    throw new ServiceError('unsupported_token', `Token ${token} is not supported on ${chain} (${tokens.join(', ')}).`);
  }
  return { chain, token: token as WalletToken };
}

/** Reads `cash:<chain>:<token>`. */
export function parseCashPositionId(id: string, chains: readonly string[]): CashPosition {
  const parts = id.split(':');
  if (parts.length !== 3 || parts[0] !== 'cash' || !parts[1] || !parts[2]) {
    throw new ServiceError('validation_error', `Cash positions have the form cash:<chain>:<token>, got "${id}".`);
  }
  return checkChainToken(parts[1], parts[2], chains);
}

/** The strategy group cash of this chain and token belongs to: TRON USDT is apart (no bridging). */
export function groupOfCash(cash: CashPosition): AllocationGroup {
  if (familyOf(cash.chain) === 'tron') return 'usdt:tron';
  return cash.token;
}

/** The cash position a group's money rests in when it leaves a source of that group's chain. */
export function homeCashOf(group: AllocationGroup, chains: readonly string[]): string {
  const family = group === 'usdt:tron' ? 'tron' : 'evm';
  const chain = chains.find((candidate) => familyOf(candidate) === family) ?? chains[0] ?? '';
  return cashPositionId(chain, group === 'usdc' ? 'usdc' : 'usdt');
}

const YEAR_MS = 365n * 24n * 3_600_000n;

/**
 * Simple interest earned by `amount` micro-dollars at `apyBps` over `elapsedMs` (scaled for the
 * sandbox), rounded down so the wallet never shows a micro-dollar it has not earned.
 */
export function accruedYield(amount: bigint, apyBps: number, elapsedMs: number, timeScale: number): bigint {
  if (amount <= 0n || apyBps <= 0 || elapsedMs <= 0) return 0n;
  return (amount * BigInt(apyBps) * BigInt(Math.floor(elapsedMs)) * BigInt(timeScale)) / (10_000n * YEAR_MS);
}

/** One stretch of time at one rate: `apyBps` for `elapsedMs`. */
export interface RateSegment {
  readonly apyBps: number;
  readonly elapsedMs: number;
}

/**
 * {@link accruedYield} over stretches at different rates (a rate change between two settlements):
 * the exact sum of the stretches' interest, rounded down once, so one stretch gives what
 * `accruedYield` gives.
 */
export function accruedYieldOver(amount: bigint, segments: readonly RateSegment[], timeScale: number): bigint {
  if (amount <= 0n) return 0n;
  let bpsMs = 0n;
  for (const segment of segments) {
    if (segment.apyBps > 0 && segment.elapsedMs > 0) bpsMs += BigInt(segment.apyBps) * BigInt(Math.floor(segment.elapsedMs));
  }
  return (amount * bpsMs * BigInt(timeScale)) / (10_000n * YEAR_MS);
}
