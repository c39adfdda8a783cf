import type { Catalogue } from './catalogue/catalogue.js';

export type ChainFamily = 'evm' | 'solana' | 'tron' | 'stellar';

export function familyOf(chain: string): ChainFamily {
  if (chain.startsWith('solana')) return 'solana';
  if (chain.startsWith('tron')) return 'tron';
  if (chain.startsWith('stellar')) return 'stellar';
  return 'evm';
}

const CHAIN_NAMES: Record<string, string> = {
  ethereum: 'Ethereum',
  ethereum_sepolia: 'Ethereum Sepolia',
  solana: 'Solana',
  solana_devnet: 'Solana Devnet',
  tron: 'TRON',
  tron_nile: 'TRON Nile',
  stellar: 'Stellar',
  stellar_testnet: 'Stellar Testnet',
};

export function chainName(chain: string): string {
  return CHAIN_NAMES[chain] ?? chain;
}

/** What the environment offers: its catalogue, its wallet chains and every chain money can rest on. */
export interface WalletChains {
  readonly catalogue: Catalogue;
  /** Chains every wallet has a deposit address on from the start. */
  readonly chains: readonly string[];
  /** Every chain money can rest on or be paid out to: the wallet chains and Stellar. */
  readonly allChains: readonly string[];
}

/** How positions are valued: the catalogue's rates and the sandbox's accrual time scale. */
export interface Valuation {
  readonly catalogue: Catalogue;
  readonly timeScale: number;
}
