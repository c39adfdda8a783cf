import { describe, expect, it } from '@jest/globals';
import { validateSync } from 'class-validator';
import { IsNonzeroEvmAddress, isNonzeroEvmAddress, toChecksumAddress } from './index.js';

const CHECKSUMMED = '0x52908400098527886E0F7030069857D2E4169EE7';

describe('isNonzeroEvmAddress', () => {
  it.each([
    ['a checksummed address', CHECKSUMMED],
    ['all lower case', CHECKSUMMED.toLowerCase()],
    ['all upper case hex', '0x' + CHECKSUMMED.slice(2).toUpperCase()],
    ['the EIP-55 test vector', '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359'],
  ])('accepts %s', (_name, value) => {
    expect(isNonzeroEvmAddress(value)).toBe(true);
  });

  it.each([
    ['the zero address', '0x0000000000000000000000000000000000000000'],
    ['41 characters', CHECKSUMMED.slice(0, 41)],
    ['43 characters', CHECKSUMMED + '7'],
    ['a missing 0x', '00' + CHECKSUMMED.slice(2)],
    ['an upper-case 0X prefix', '0X' + CHECKSUMMED.slice(2)],
    ['a non-hex digit', '0x52908400098527886E0F7030069857D2E4169EEG'],
    ['a broken checksum', '0x52908400098527886E0F7030069857D2E4169Ee7'],
    ['a number', 42],
    ['null', null],
  ])('rejects %s', (_name, value) => {
    expect(isNonzeroEvmAddress(value)).toBe(false);
  });

  it('checksums a lower-case address', () => {
    expect(toChecksumAddress(CHECKSUMMED.toLowerCase() as `0x${string}`)).toBe(CHECKSUMMED);
  });
});

describe('IsNonzeroEvmAddress', () => {
  class Body {
    @IsNonzeroEvmAddress()
    address!: string;
  }

  it('reports the property with a clear message', () => {
    const body = Object.assign(new Body(), { address: '0x0000000000000000000000000000000000000000' });
    const [error] = validateSync(body);
    expect(error?.property).toBe('address');
    expect(Object.values(error?.constraints ?? {})[0]).toMatch(/nonzero EVM address/);
    expect(validateSync(Object.assign(new Body(), { address: CHECKSUMMED }))).toEqual([]);
  });
});
