import { checksumAddress } from 'viem';

const SHAPE = /^0x(?!0{40}$)[0-9a-fA-F]{40}$/;

/**
 * `NonzeroEvmAddress` of the interface: 42 characters, `0x` and 40 hex digits, not the all-zero
 * address, and a mixed-case value only when it carries a valid EIP-55 checksum. All-lower and
 * all-upper hex carry no checksum and are accepted as they are.
 */
export function isNonzeroEvmAddress(value: unknown): value is `0x${string}` {
  if (typeof value !== 'string' || !SHAPE.test(value)) return false;
  const hex = value.slice(2);
  const mixedCase = hex !== hex.toLowerCase() && hex !== hex.toUpperCase();
  return !mixedCase || checksumAddress(value as `0x${string}`) === value;
}

/** The EIP-55 form of an address already known to be valid, as responses show addresses. */
export function toChecksumAddress(value: `0x${string}`): `0x${string}` {
  return checksumAddress(value.toLowerCase() as `0x${string}`);
}
