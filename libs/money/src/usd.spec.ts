import { describe, expect, it } from '@jest/globals';
import { thrownCode } from '@service/errors';
import { validateSync } from 'class-validator';
import { formatUsd, isUsdAmount, IsUsdAmount, MAX_USD_MICROS, parseUsd } from './index.js';

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

  it('reads up to what a bigint column holds and refuses a micro-dollar more, naming the field', () => {
    expect(parseUsd('9223372036854.775807')).toBe(MAX_USD_MICROS);
    expect(() => parseUsd('9223372036854.775808', { field: 'thresholdUsd' })).toThrow('thresholdUsd must be at most 9223372036854.775807.');
    expect(thrownCode(() => parseUsd('9223372036854775807.000000'))).toBe('validation_error');
    expect(thrownCode(() => parseUsd('-9223372036854.775808', { allowNegative: true }))).toBe('validation_error');
  });

  it('refuses text longer than any amount', () => {
    expect(thrownCode(() => parseUsd(`0.${'0'.repeat(40)}`))).toBe('validation_error');
  });
});

describe('isUsdAmount', () => {
  it.each([['10.5'], [12.25], ['9223372036854.775807'], ['1.0000001'], ['-1']])(
    'takes %p: precision and sign are for parseUsd to judge',
    (value) => {
      expect(isUsdAmount(value)).toBe(true);
    },
  );

  it.each([['9223372036854.775808'], ['9223372036854775807.000000'], [1e21], ['abc'], [''], [null], [['1']], [{}]])(
    'refuses %p',
    (value) => {
      expect(isUsdAmount(value)).toBe(false);
    },
  );
});

describe('IsUsdAmount', () => {
  class Body {
    @IsUsdAmount()
    thresholdUsd!: unknown;
  }

  it('names the property and the largest amount', () => {
    const [error] = validateSync(Object.assign(new Body(), { thresholdUsd: '9223372036854775807.000000' }));
    expect(error?.constraints).toEqual({
      isUsdAmount: 'thresholdUsd must be a decimal USD amount such as "10.500000", at most 9223372036854.775807',
    });
    expect(validateSync(Object.assign(new Body(), { thresholdUsd: '1000.000000' }))).toEqual([]);
  });
});

describe('formatUsd', () => {
  it('always prints six decimals', () => {
    expect(formatUsd(0n)).toBe('0.000000');
    expect(formatUsd(1n)).toBe('0.000001');
    expect(formatUsd(10_500_000n)).toBe('10.500000');
    expect(formatUsd(-1_500_000n)).toBe('-1.500000');
    expect(formatUsd(parseUsd('9223372036854.775807'))).toBe('9223372036854.775807');
  });
});
