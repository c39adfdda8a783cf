import { describe, expect, it } from '@jest/globals';
import { thrownCode } from '@service/errors';
import { formatUsd, parseUsd } from './index.js';

describe('parseUsd', () => {
  it.each([
    ['10', 10_000_000n],
    ['10.5', 10_500_000n],
    ['0.000001', 1n],
    ['123456789.123456', 123_456_789_123_456n],
    ['1.1234560', 1_123_456n],
    [12.25, 12_250_000n],
    [0.000001, 1n],
  ])('reads %p as %p micros', (input, micros) => {
    expect(parseUsd(input)).toBe(micros);
  });

  it('rejects a seventh decimal with precision_overflow, for strings and numbers', () => {
    expect(thrownCode(() => parseUsd('1.0000001'))).toBe('precision_overflow');
    expect(thrownCode(() => parseUsd(1e-7))).toBe('precision_overflow');
  });

  it.each([['abc'], [''], ['1,5'], ['1e3'], [null], [Number.NaN], [{}]])('rejects %p with validation_error', (input) => {
    expect(thrownCode(() => parseUsd(input))).toBe('validation_error');
  });

  it('rejects negatives unless allowed', () => {
    expect(thrownCode(() => parseUsd('-1'))).toBe('validation_error');
    expect(parseUsd('-1.5', { allowNegative: true })).toBe(-1_500_000n);
  });
});

describe('formatUsd', () => {
  it('always prints six decimals', () => {
    expect(formatUsd(0n)).toBe('0.000000');
    expect(formatUsd(1n)).toBe('0.000001');
    expect(formatUsd(10_500_000n)).toBe('10.500000');
    expect(formatUsd(-1_500_000n)).toBe('-1.500000');
    expect(formatUsd(parseUsd('98765432101234.987654'))).toBe('98765432101234.987654');
  });
});
