import { type BeforeApplicationShutdown, Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { PollingLoop } from '@service/events';
import { SERVICE_CONFIG, SERVICE_LOGGER } from '@service/service-runtime';
import type { Logger } from 'pino';
import type { RiskConfig } from '../../config.js';
import { MarketDataService } from '../market-data/market-data.service.js';

/**
 * Reads every yield source through its provider each RISK_OBSERVATION_INTERVAL_MS and evaluates
 * the rules on the readings. Replicas each run the loop; a source read by another replica less
 * than half a cadence ago is skipped, so the cadence holds whatever the replica count.
 */
@Injectable()
export class ObservationWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private loop: PollingLoop | undefined;

  constructor(
    private readonly marketData: MarketDataService,
    @Inject(SERVICE_CONFIG) private readonly config: RiskConfig,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    const interval = this.config.RISK_OBSERVATION_INTERVAL_MS;
    if (interval === 0) return;
    this.loop = new PollingLoop(
      async () => {
        await this.marketData.readAll(new Date(), interval / 2);
      },
      interval,
      (error) => this.logger.error({ err: error }, 'risk: observation tick failed'),
    );
    this.loop.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.loop?.stop();
  }
}
