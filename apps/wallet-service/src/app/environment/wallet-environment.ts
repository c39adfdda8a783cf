import { Inject, Injectable } from '@nestjs/common';
import { WALLET_CHAINS } from '@service/contracts';
import { SERVICE_CONFIG } from '@service/service-runtime';
import type { WalletConfig } from '../../config.js';
import { addressSeed } from '../domain/addresses/deposit-addresses.js';
import { Catalogue } from '../domain/catalogue/catalogue.js';
import type { Valuation, WalletChains } from '../domain/chains.js';

/** Stellar is a wallet chain only once its deposit address is enabled (changelog of Oct 9, 2026). */
const STELLAR_CHAINS = { sandbox: 'stellar_testnet', production: 'stellar' } as const;

/** What the environment (`SERVICE_ENV`) decides: the catalogue, the wallet chains and the address seed. */
@Injectable()
export class WalletEnvironment implements WalletChains, Valuation {
  readonly catalogue: Catalogue;
  readonly chains: readonly string[];
  /** The chain whose deposit address an enable call sets up. */
  readonly stellarChain: string;
  readonly allChains: readonly string[];
  readonly seed: Buffer;
  readonly sandbox: boolean;
  /** Sandbox: simulated seconds of yield accrual per real second. */
  readonly timeScale: number;

  constructor(@Inject(SERVICE_CONFIG) readonly config: WalletConfig) {
    this.catalogue = new Catalogue(config.SERVICE_ENV, config.WALLET_ACCRUAL_RATE_CHANGES);
    if (config.SERVICE_ENV !== 'sandbox' && config.WALLET_CLOCK_OFFSET_MS !== 0) {
      throw new Error('WALLET_CLOCK_OFFSET_MS is sandbox only; production keeps 0');
    }
    if (config.SERVICE_ENV !== 'sandbox' && config.WALLET_CLOCK_CONTROL) {
      throw new Error('WALLET_CLOCK_CONTROL is sandbox only; production keeps false');
    }
    this.clockOffsetMs = config.WALLET_CLOCK_OFFSET_MS;
    this.chains = WALLET_CHAINS[config.SERVICE_ENV];
    this.stellarChain = STELLAR_CHAINS[config.SERVICE_ENV];
    this.allChains = [...this.chains, this.stellarChain];
    this.seed = addressSeed(config.WALLET_ADDRESS_SEED, config.SERVICE_ENV);
    this.sandbox = config.SERVICE_ENV === 'sandbox';
    this.timeScale = config.WALLET_YIELD_TIME_SCALE;
  }

  /** Sandbox: what `WALLET_CLOCK_OFFSET_MS` adds to the wall clock. */
  readonly clockOffsetMs: number;

  private pinned: Date | null = null;

  /** The service's clock: the wall clock, moved by `WALLET_CLOCK_OFFSET_MS` in the sandbox (or where {@link pinClock} stopped it). */
  now(): Date {
    return this.pinned ? new Date(this.pinned.getTime()) : new Date(Date.now() + this.clockOffsetMs);
  }

  /** Sandbox only (tests in process): the clock stands at `at` until pinned elsewhere; null lets it run again. */
  pinClock(at: Date | null): void {
    if (!this.sandbox) throw new Error('The clock can be pinned in the sandbox only');
    this.pinned = at;
  }

  /** Sandbox: the sources whose payout legs fail; none in production. */
  get failingSources(): readonly string[] {
    return this.sandbox ? this.config.WALLET_SANDBOX_FAILING_SOURCES : [];
  }
}
