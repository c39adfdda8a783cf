import { randomBytes } from 'node:crypto';
import { base58 } from './base58.js';
import { familyOf } from '../chains.js';

/**
 * A sandbox transaction id in the chain's own format: 0x-hex on EVM, bare hex on TRON and
 * Stellar, a base58 64-byte signature on Solana.
 */
export function simulatedTxHash(chain: string): string {
  const family = familyOf(chain);
  if (family === 'solana') return base58(randomBytes(64));
  const hex = randomBytes(32).toString('hex');
  return family === 'evm' ? `0x${hex}` : hex;
}

/** A transaction id as stored: hex (0x-prefixed or bare) in lower case; base58 (Solana) as given. */
export function normalizedTxHash(txHash: string): string {
  return /^(0x)?[0-9a-fA-F]{64}$/.test(txHash) ? txHash.toLowerCase() : txHash;
}
