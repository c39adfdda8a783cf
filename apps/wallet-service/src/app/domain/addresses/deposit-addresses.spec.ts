import { createHash } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { isNonzeroEvmAddress } from '@service/evm';
import { base58, base58check } from './base58.js';
import { addressSeed, deriveDepositAddresses } from './deposit-addresses.js';

const seed = Buffer.alloc(32, 7);
const chains = ['ethereum_sepolia', 'solana_devnet', 'tron_nile'];

function decodeBase58(text: string): Buffer {
  const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  let value = 0n;
  for (const char of text) value = value * 58n + BigInt(alphabet.indexOf(char));
  const hex = value.toString(16);
  const body = Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex');
  const zeros = text.match(/^1*/)?.[0].length ?? 0;
  return Buffer.concat([Buffer.alloc(zeros), body]);
}

describe('base58', () => {
  it('matches the Bitcoin test vectors', () => {
    expect(base58(Buffer.from('Hello World!'))).toBe('2NEpo7TZRRrLZSi2U');
    expect(base58(Buffer.from('00000000000000000000', 'hex'))).toBe('1111111111');
    expect(base58check(Buffer.from('00f54a5851e9372b87810a8e60cdd2e7cfd80b6e31', 'hex'))).toBe('1PMycacnJaSqwwJqjawXBErnLsZ7RkXUAs');
  });
});

describe('deposit addresses', () => {
  const addresses = deriveDepositAddresses(seed, '6f1c2b0e-6d1e-4c55-9f3c-0a3a3e5b9d11', chains);

  it('gives a checksummed EVM address', () => {
    const evm = addresses['ethereum_sepolia']!;
    expect(isNonzeroEvmAddress(evm)).toBe(true);
    expect(evm).not.toBe(evm.toLowerCase());
  });

  it('gives a Solana address that is a base58 32-byte key', () => {
    const solana = addresses['solana_devnet']!;
    expect(solana).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    expect(decodeBase58(solana)).toHaveLength(32);
  });

  it('gives a TRON T-address with a valid checksum', () => {
    const tron = addresses['tron_nile']!;
    expect(tron).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    const bytes = decodeBase58(tron);
    expect(bytes).toHaveLength(25);
    expect(bytes[0]).toBe(0x41);
    const sha = (data: Buffer) => createHash('sha256').update(data).digest();
    expect(sha(sha(bytes.subarray(0, 21))).subarray(0, 4)).toEqual(bytes.subarray(21));
  });

  it('is stable per wallet and differs between wallets', () => {
    expect(deriveDepositAddresses(seed, '6f1c2b0e-6d1e-4c55-9f3c-0a3a3e5b9d11', chains)).toEqual(addresses);
    const other = deriveDepositAddresses(seed, '00000000-0000-4000-8000-000000000001', chains);
    for (const chain of chains) expect(other[chain]).not.toBe(addresses[chain]);
  });

  it('requires a configured seed in production only', () => {
    expect(() => addressSeed(null, 'production')).toThrow(/WALLET_ADDRESS_SEED/);
    expect(addressSeed(null, 'sandbox')).toHaveLength(32);
    expect(addressSeed(seed, 'production')).toBe(seed);
  });
});
