import { type ConfigOf, parsers, type ServiceConfig } from '@service/service-runtime';

/** `sourceId=0xvault,...`: the yield sources read from an ERC-4626 vault, and each vault's address. */
export function parseOnchainVaults(raw: string): ReadonlyMap<string, `0x${string}`> {
  const vaults = new Map<string, `0x${string}`>();
  for (const entry of raw.split(',').map((part) => part.trim())) {
    if (entry === '') continue;
    const match = /^([a-z0-9][a-z0-9-]{0,99})=(0x[0-9a-fA-F]{40})$/.exec(entry);
    if (!match) throw new Error(`must be sourceId=0xaddress entries, comma-separated, got "${entry}"`);
    vaults.set(match[1] as string, match[2] as `0x${string}`);
  }
  return vaults;
}

export const riskConfigSpec = {
  RISK_OBSERVATION_INTERVAL_MS: {
    description: "cadence of the providers' readings of every yield source (one observation per source each time); 0 turns the worker off",
    default: '60000',
    parse: (raw: string) => {
      const value = parsers.integer(0, 86_400_000)(raw);
      if (value !== 0 && value < 100) throw new Error(`must be 0 or at least 100, got ${value}`);
      return value;
    },
  },
  RISK_DEFAULT_PROVIDER: {
    description:
      'provider of the sources RISK_ONCHAIN_VAULTS does not name: `simulated` (a deterministic seeded series around the catalogue figures) or `none` (no readings)',
    default: 'simulated',
    parse: parsers.oneOf('simulated', 'none'),
  },
  RISK_SIMULATION_SEED: {
    description: 'seed of the simulated series: the same seed gives the same readings at the same times',
    default: 'risk-sandbox',
    parse: (raw: string) => {
      if (raw.length === 0 || raw.length > 100) throw new Error('must be 1 to 100 characters');
      return raw;
    },
  },
  RISK_ONCHAIN_VAULTS: {
    description: 'yield sources read from an ERC-4626 vault on chain: `sourceId=0xvault` entries, comma-separated (empty: none)',
    default: '',
    parse: parseOnchainVaults,
  },
  RISK_CHAIN_RPC_URL: {
    description: 'JSON-RPC URL of the chain the RISK_ONCHAIN_VAULTS live on (required when RISK_ONCHAIN_VAULTS names any)',
    default: '',
    parse: (raw: string) => (raw === '' ? raw : parsers.url('http:', 'https:')(raw)),
  },
};

export type RiskConfig = ServiceConfig & ConfigOf<typeof riskConfigSpec>;
