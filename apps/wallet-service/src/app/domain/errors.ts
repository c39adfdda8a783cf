import { ServiceError } from '@service/errors';
import { formatUsd } from '@service/money';

export const walletNotFound = (id: string) => new ServiceError('wallet_not_found', `Wallet ${id} was not found.`);
export const withdrawalNotFound = (id: string) => new ServiceError('withdrawal_not_found', `Withdrawal ${id} was not found.`);

/** A wallet's money in three figures, as `insufficient_funds` and the wallet record show it. */
export interface BalanceFigures {
  readonly totalUsd: string;
  readonly withdrawableUsd: string;
  readonly reservedUsd: string;
}

/** The figures of positions holding `amount` micro-dollars each, `reserved` of it held by workflows in flight. */
export function balanceFigures(positions: readonly { readonly amount: bigint; readonly reserved: bigint }[]): BalanceFigures {
  const total = positions.reduce((sum, position) => sum + position.amount, 0n);
  const reserved = positions.reduce((sum, position) => sum + position.reserved, 0n);
  return { totalUsd: formatUsd(total), withdrawableUsd: formatUsd(total - reserved), reservedUsd: formatUsd(reserved) };
}

/** `insufficient_funds`, carrying the wallet's balance so a client can offer what is possible. */
export const insufficientFunds = (message: string, balance: BalanceFigures) => new ServiceError('insufficient_funds', message, { balance });
