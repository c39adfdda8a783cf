import { type ConfigOf, parsers, type ServiceConfig } from '@service/service-runtime';

/** Empty means no key: the service then answers reads but refuses every write with a 503. */
function optionalPrivateKey(raw: string): `0x${string}` | null {
  if (raw === '') return null;
  if (!/^0x[0-9a-fA-F]{64}$/.test(raw)) throw new Error('must be 0x followed by 64 hex digits');
  return raw as `0x${string}`;
}

export const microvaultConfigSpec = {
  SEPOLIA_RPC_URL: {
    description: 'JSON-RPC URL of Ethereum Sepolia (or of a local node answering with chain id 11155111)',
    default: 'https://ethereum-sepolia-rpc.publicnode.com',
    parse: parsers.url('http:', 'https:'),
  },
  MICROVAULT_OPERATOR_KEY: {
    description: 'private key of the operator that deploys vaults and signs every vault change (a secret)',
    default: '',
    parse: optionalPrivateKey,
  },
  CHAIN_CONFIRMATIONS: {
    description: 'blocks (including the one holding it) after which a transaction counts as confirmed',
    default: '2',
    parse: parsers.integer(1, 64),
  },
  CHAIN_RPC_TIMEOUT_MS: {
    description: 'how long one JSON-RPC call may take before the chain counts as unavailable',
    default: '2000',
    parse: parsers.integer(50, 60_000),
  },
  MICROVAULT_WORKER_INTERVAL_MS: {
    description: 'how often the task worker looks for work and receipts',
    default: '2000',
    parse: parsers.integer(20, 600_000),
  },
  MICROVAULT_SIGNER_LEASE_MS: {
    description: 'how long the replica that signs keeps the operator key after its last renewal',
    default: '15000',
    parse: parsers.integer(200, 600_000),
  },
};

export type MicroVaultConfig = ServiceConfig & ConfigOf<typeof microvaultConfigSpec>;
