import { ServiceError } from '@service/errors';

export const walletNotFound = (id: string) => new ServiceError('wallet_not_found', `Wallet ${id} was not found.`);
export const withdrawalNotFound = (id: string) => new ServiceError('withdrawal_not_found', `Withdrawal ${id} was not found.`);
