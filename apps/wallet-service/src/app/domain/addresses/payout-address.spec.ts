import { describe, expect, it } from '@jest/globals';
import { thrownCode } from '@service/errors';
import { deriveDepositAddresses } from './deposit-addresses.js';
import { addressKey, checkAddress } from './payout-address.js';
import { crc16xmodem, isStellarAccountId, stellarAccountId } from './strkey.js';

describe('Stellar StrKey', () => {
  it('computes the CRC16-XModem check value', () => {
    expect(crc16xmodem(Buffer.from('123456789'))).toBe(0x31c3);
  });

  it('encodes the all-zero key as the well-known null account', () => {
    expect(stellarAccountId(Buffer.alloc(32))).toBe('GAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAWHF');
  });

  it('accepts published G-addresses and refuses a changed character, a secret seed or a short key', () => {
    expect(isStellarAccountId('GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ')).toBe(true);
    expect(isStellarAccountId('GAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAWHF')).toBe(true);
    expect(isStellarAccountId('GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGA')).toBe(false);
    expect(isStellarAccountId('SCZANGBA5YHTNYVVV4C3U252E2B6P6F5T3U6MM63WBSBZATAQI3EBTQ4')).toBe(false);
    expect(isStellarAccountId('GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSG')).toBe(false);
  });
});

describe('payout addresses', () => {
  it.each([
    ['ethereum_sepolia', '0x52908400098527886E0F7030069857D2E4169EE7'],
    ['ethereum_sepolia', '0xde709f2102306220921060314715629080e2fb77'],
    ['tron_nile', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'],
    ['solana_devnet', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'],
    ['solana_devnet', '11111111111111111111111111111111'],
    ['stellar_testnet', 'GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ'],
  ])('accepts a %s address %s', (chain, address) => {
    expect(checkAddress(chain, address)).toBe(address);
  });

  it.each([
    ['ethereum_sepolia', '0x0000000000000000000000000000000000000000'],
    ['ethereum_sepolia', '0x52908400098527886E0F7030069857D2E4169Ee7'],
    ['ethereum_sepolia', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'],
    ['tron_nile', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u'],
    ['tron_nile', '1PMycacnJaSqwwJqjawXBErnLsZ7RkXUAs'],
    ['solana_devnet', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZ'],
    ['solana_devnet', '0OIl0OIl0OIl0OIl0OIl0OIl0OIl0OIl'],
    ['solana_devnet', '0x52908400098527886E0F7030069857D2E4169EE7'],
    ['stellar_testnet', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'],
    ['tron_nile', 42],
  ])('refuses a %s address %p with invalid_destination_address', (chain, address) => {
    expect(thrownCode(() => checkAddress(chain, address))).toBe('invalid_destination_address');
  });

  it('compares EVM addresses without letter case and others exactly', () => {
    expect(addressKey('ethereum', '0x52908400098527886E0F7030069857D2E4169EE7')).toBe('0x52908400098527886e0f7030069857d2e4169ee7');
    expect(addressKey('tron', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t');
  });
});

describe('Stellar deposit addresses', () => {
  it('derives a stable, valid G-address per wallet', () => {
    const walletId = '6f1c2b0e-6d1e-4c55-9f3c-0a3a3e5b9d11';
    const { stellar_testnet: address } = deriveDepositAddresses(Buffer.alloc(32, 7), walletId, ['stellar_testnet']);
    expect(address).toMatch(/^G[A-Z2-7]{55}$/);
    expect(isStellarAccountId(address ?? '')).toBe(true);
    expect(deriveDepositAddresses(Buffer.alloc(32, 7), walletId, ['stellar_testnet']).stellar_testnet).toBe(address);
  });
});
