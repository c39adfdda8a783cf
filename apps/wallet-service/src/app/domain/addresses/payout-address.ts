import { ServiceError } from '@service/errors';
import { isNonzeroEvmAddress } from '@service/evm';
import { unbase58, unbase58check } from './base58.js';
import { type ChainFamily, familyOf } from '../chains.js';
import { isStellarAccountId } from './strkey.js';

/** TRON account addresses: base58check of 0x41 and 20 bytes. */
function isTronAddress(text: string): boolean {
  const payload = text.startsWith('T') ? unbase58check(text) : null;
  return payload !== null && payload.length === 21 && payload[0] === 0x41;
}

/** Solana account addresses: a base58 32-byte public key (32 to 44 characters). */
function isSolanaAddress(text: string): boolean {
  if (text.length < 32 || text.length > 44) return false;
  return unbase58(text)?.length === 32;
}

const CHECKS: Record<ChainFamily, (text: string) => boolean> = {
  evm: isNonzeroEvmAddress,
  solana: isSolanaAddress,
  tron: isTronAddress,
  stellar: isStellarAccountId,
};

/** Checks `address` against the format of `chain`: `invalid_destination_address` otherwise. */
export function checkAddress(chain: string, address: unknown): string {
  if (typeof address !== 'string' || !CHECKS[familyOf(chain)](address)) {
    throw new ServiceError('invalid_destination_address', `${String(address)} is not a valid ${chain} address.`);
  }
  return address;
}

/** The address as compared: EVM addresses are case-insensitive (the checksum is only letter case). */
export function addressKey(chain: string, address: string): string {
  return familyOf(chain) === 'evm' ? address.toLowerCase() : address;
}
