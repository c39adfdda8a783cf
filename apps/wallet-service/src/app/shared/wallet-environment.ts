import { Inject, Injectable } from '@nestjs/common';
import { WALLET_CHAINS } from '@service/contracts';
import { SERVICE_CONFIG } from '@service/service-runtime';
import type { WalletConfig } from '../../config.js';
import { addressSeed } from '../addresses/deposit-addresses.js';
import { Catalogue } from '../yield-sources/catalogue.js';

/** Stellar is a wallet chain only once its deposit address is enabled (changelog of Oct 9, 2026). */
const STELLAR_CHAINS = { sandbox: 'stellar_testnet', production: 'stellar' } as const;

/** What the environment (`SERVICE_ENV`) decides: the catalogue, the wallet chains and the address seed. */
@Injectable()
export class WalletEnvironment {
  readonly catalogue: Catalogue;
  /** Chains every wallet has a deposit address on from the start. */
  readonly chains: readonly string[];
  /** The chain whose deposit address an enable call sets up. */
  readonly stellarChain: string;
  /** Every chain money can rest on or be paid out to: the wallet chains and Stellar. */
  readonly allChains: readonly string[];
  readonly seed: Buffer;
  readonly sandbox: boolean;

  constructor(@Inject(SERVICE_CONFIG) readonly config: WalletConfig) {
    this.catalogue = new Catalogue(config.SERVICE_ENV);
    this.chains = WALLET_CHAINS[config.SERVICE_ENV];
    this.stellarChain = STELLAR_CHAINS[config.SERVICE_ENV];
    this.allChains = [...this.chains, this.stellarChain];
    this.seed = addressSeed(config.WALLET_ADDRESS_SEED, config.SERVICE_ENV);
    this.sandbox = config.SERVICE_ENV === 'sandbox';
  }
}
