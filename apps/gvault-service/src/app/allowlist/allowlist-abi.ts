/**
 * What the service needs of a gtoken's allowlist contract: Superstate's USTB answers
 * `isAllowed(address)`, and the followed contract announces each change with `AllowlistUpdated`.
 */
export const ALLOWLIST_ABI = [
  {
    type: 'function',
    name: 'isAllowed',
    stateMutability: 'view',
    inputs: [{ name: 'account', type: 'address' }],
    outputs: [{ name: '', type: 'bool' }],
  },
  {
    type: 'event',
    name: 'AllowlistUpdated',
    anonymous: false,
    inputs: [
      { name: 'account', type: 'address', indexed: true },
      { name: 'allowed', type: 'bool', indexed: false },
    ],
  },
] as const;

export const ALLOWLIST_UPDATED_EVENT = ALLOWLIST_ABI[1];
