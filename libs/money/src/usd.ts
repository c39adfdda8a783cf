import { ServiceError } from '@service/errors';

const MICROS_PER_DOLLAR = 1_000_000n;
const DECIMAL = /^(-)?(\d+)(?:\.(\d+))?$/;

export interface ParseUsdOptions {
  /** Field name for messages. */
  readonly field?: string;
  /** Negative amounts are rejected unless allowed. */
  readonly allowNegative?: boolean;
}

/**
 * Reads a USD amount as integer micro-dollars. Accepts a decimal string or, as integrators send
 * it, a JSON number; more than six decimals is `precision_overflow`, anything else malformed is
 * `validation_error`. Never goes through a float for strings.
 */
export function parseUsd(input: unknown, options: ParseUsdOptions = {}): bigint {
  const field = options.field ?? 'amountUsd';
  const text = typeof input === 'number' && Number.isFinite(input) ? numberToPlain(input) : input;
  if (typeof text !== 'string') {
    throw new ServiceError('validation_error', `${field} must be a decimal USD amount such as "10.500000".`);
  }
  const match = DECIMAL.exec(text.trim());
  if (!match) {
    throw new ServiceError('validation_error', `${field} must be a decimal USD amount such as "10.500000".`);
  }
  const [, sign, whole = '0', fraction = ''] = match;
  const significantFraction = fraction.replace(/0+$/, '');
  if (significantFraction.length > 6) {
    throw new ServiceError('precision_overflow', `${field} has more than six decimal places.`);
  }
  const micros = BigInt(whole) * MICROS_PER_DOLLAR + BigInt(significantFraction.padEnd(6, '0') || '0');
  if (sign && micros !== 0n && !options.allowNegative) {
    throw new ServiceError('validation_error', `${field} must not be negative.`);
  }
  return sign ? -micros : micros;
}

/** Micro-dollars as the wire shows USD: a string with exactly six decimals. */
export function formatUsd(micros: bigint): string {
  const negative = micros < 0n;
  const absolute = negative ? -micros : micros;
  const whole = absolute / MICROS_PER_DOLLAR;
  const fraction = (absolute % MICROS_PER_DOLLAR).toString().padStart(6, '0');
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}

/** A JSON number in positional notation (1e-7 -> "0.0000001"), so precision is judged on digits. */
function numberToPlain(value: number): string {
  const text = String(value);
  if (!/e/i.test(text)) return text;
  return value.toFixed(20).replace(/\.?0+$/, '');
}
