import { createHmac, createPrivateKey, createPublicKey } from 'node:crypto';
import { keccak256, toHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { base58, base58check } from './base58.js';
import { type ChainFamily, familyOf } from '../chains.js';
import { stellarAccountId } from './strkey.js';

/**
 * A public development seed: sandbox addresses are test-network addresses, so a missing
 * WALLET_ADDRESS_SEED there still gives stable, well-formed addresses. Production refuses to boot
 * without its own seed.
 */
const SANDBOX_DEV_SEED = Buffer.from('5eed'.repeat(16), 'hex');

/** PKCS#8 header of a raw 32-byte Ed25519 private key (RFC 8410). */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export function addressSeed(seed: Buffer | null, environment: 'sandbox' | 'production'): Buffer {
  if (seed) return seed;
  if (environment === 'production') throw new Error('WALLET_ADDRESS_SEED is required in production');
  return SANDBOX_DEV_SEED;
}

/** The private key of one wallet on one chain: HMAC-SHA-256(seed, "<walletId>:<chain>"). */
function childKey(seed: Buffer, walletId: string, chain: string): Buffer {
  return createHmac('sha256', seed).update(`${walletId}:${chain}`).digest();
}

function evmAddress(key: Buffer): string {
  return privateKeyToAccount(toHex(key)).address;
}

/** TRON: 0x41 followed by the last 20 bytes of keccak256 of the secp256k1 public key, base58check. */
function tronAddress(key: Buffer): string {
  const account = privateKeyToAccount(toHex(key));
  const publicKey = Buffer.from(account.publicKey.slice(4), 'hex');
  const hash = Buffer.from(keccak256(publicKey).slice(2), 'hex');
  return base58check(Buffer.concat([Buffer.from([0x41]), hash.subarray(12)]));
}

function ed25519PublicKey(key: Buffer): Buffer {
  const privateKey = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, key]), format: 'der', type: 'pkcs8' });
  const jwk = createPublicKey(privateKey).export({ format: 'jwk' });
  return Buffer.from(jwk.x ?? '', 'base64url');
}

/** Solana: the base58 Ed25519 public key. */
function solanaAddress(key: Buffer): string {
  return base58(ed25519PublicKey(key));
}

/** Stellar: the StrKey account id (G-address) of the Ed25519 public key. */
function stellarAddress(key: Buffer): string {
  return stellarAccountId(ed25519PublicKey(key));
}

const DERIVERS: Record<ChainFamily, (key: Buffer) => string> = {
  evm: evmAddress,
  solana: solanaAddress,
  tron: tronAddress,
  stellar: stellarAddress,
};

/** Every deposit address of a wallet, keyed by chain; the same seed and id always give the same ones. */
export function deriveDepositAddresses(seed: Buffer, walletId: string, chains: readonly string[]): Record<string, string> {
  return Object.fromEntries(chains.map((chain) => [chain, DERIVERS[familyOf(chain)](childKey(seed, walletId, chain))]));
}
