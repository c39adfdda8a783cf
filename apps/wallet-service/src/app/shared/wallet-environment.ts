import { Inject, Injectable } from '@nestjs/common';
import { WALLET_CHAINS } from '@service/contracts';
import { SERVICE_CONFIG } from '@service/service-runtime';
import type { WalletConfig } from '../../config.js';
import { addressSeed } from '../addresses/deposit-addresses.js';
import { Catalogue } from '../yield-sources/catalogue.js';

/** What the environment (`SERVICE_ENV`) decides: the catalogue, the wallet chains and the address seed. */
@Injectable()
export class WalletEnvironment {
  readonly catalogue: Catalogue;
  readonly chains: readonly string[];
  readonly seed: Buffer;
  readonly sandbox: boolean;

  constructor(@Inject(SERVICE_CONFIG) readonly config: WalletConfig) {
    this.catalogue = new Catalogue(config.SERVICE_ENV);
    this.chains = WALLET_CHAINS[config.SERVICE_ENV];
    this.seed = addressSeed(config.WALLET_ADDRESS_SEED, config.SERVICE_ENV);
    this.sandbox = config.SERVICE_ENV === 'sandbox';
  }
}
