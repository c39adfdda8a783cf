import { ServiceError } from '@service/errors';

const MICROS_PER_DOLLAR = 1_000_000n;
const DECIMAL = /^(-)?(\d+)(?:\.(\d+))?$/;

export interface ParseUsdOptions {
  /** Field name for messages. */
  readonly field?: string;
  /** Negative amounts are rejected unless allowed. */
  readonly allowNegative?: boolean;
}

/** The most micro-dollars a PostgreSQL bigint (int8) column holds: 9223372036854.775807 USD. */
export const MAX_USD_MICROS = 9_223_372_036_854_775_807n;
/** Longer text is no amount: the largest, with a sign and trailing zeros to spare, is far shorter. */
const MAX_USD_TEXT_LENGTH = 40;

interface UsdDecimal {
  readonly negative: boolean;
  readonly whole: string;
  readonly fraction: string;
}

/** A USD amount's digits, before its precision, sign and size are judged. */
function decimalOf(input: unknown): UsdDecimal | undefined {
  const text = typeof input === 'number' && Number.isFinite(input) ? numberToPlain(input) : input;
  if (typeof text !== 'string' || text.length > MAX_USD_TEXT_LENGTH) return undefined;
  const match = DECIMAL.exec(text.trim());
  if (!match) return undefined;
  const [, sign, whole = '0', fraction = ''] = match;
  return { negative: sign !== undefined, whole, fraction };
}

/** Micro-dollars of the whole dollars and the first six decimals (more are precision_overflow). */
function microsOf({ whole, fraction }: UsdDecimal): bigint {
  return BigInt(whole) * MICROS_PER_DOLLAR + BigInt(fraction.slice(0, 6).padEnd(6, '0'));
}

/**
 * Reads a USD amount as integer micro-dollars. Accepts a decimal string or, as integrators send
 * it, a JSON number; more than six decimals is `precision_overflow`, anything else malformed, or
 * more than a bigint column holds, is `validation_error`. Never goes through a float for strings.
 */
export function parseUsd(input: unknown, options: ParseUsdOptions = {}): bigint {
  const field = options.field ?? 'amountUsd';
  const decimal = decimalOf(input);
  if (!decimal) {
    throw new ServiceError('validation_error', `${field} must be a decimal USD amount such as "10.500000".`);
  }
  if (decimal.fraction.replace(/0+$/, '').length > 6) {
    throw new ServiceError('precision_overflow', `${field} has more than six decimal places.`);
  }
  const micros = microsOf(decimal);
  if (decimal.negative && micros !== 0n && !options.allowNegative) {
    throw new ServiceError('validation_error', `${field} must not be negative.`);
  }
  if (micros > MAX_USD_MICROS) {
    throw new ServiceError('validation_error', `${field} must be at most ${formatUsd(MAX_USD_MICROS)}.`);
  }
  return decimal.negative ? -micros : micros;
}

/**
 * Whether `value` is a USD amount in a form `parseUsd` reads whose micro-dollars fit a bigint
 * column. Its precision and sign are left to `parseUsd`, which refuses them with their own codes.
 */
export function isUsdAmount(value: unknown): boolean {
  const decimal = decimalOf(value);
  return decimal !== undefined && microsOf(decimal) <= MAX_USD_MICROS;
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
