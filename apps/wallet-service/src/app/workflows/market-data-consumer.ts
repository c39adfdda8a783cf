import { type BeforeApplicationShutdown, Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { eventSubject } from '@service/contracts';
import { DurableConsumer } from '@service/events';
import { NATS_CONNECTION, SERVICE_CONFIG, SERVICE_LOGGER, serviceEventStream } from '@service/service-runtime';
import type { Logger } from 'pino';
import type { WalletConfig } from '../../config.js';
import { type MarketFigures, marketFiguresOfEvent, newestPerScope } from '../domain/catalogue/market-figures.js';
import { recordMarketFigures } from '../repositories/market-figures.repository.js';
import { WalletSql, type WalletTx } from '../repositories/wallet-sql.js';

/** The durable of the catalogue's live figures (NATS permissions: k8s/base/nats/nats-server.conf). */
export const MARKET_DATA_DURABLE = 'wallet-market-data';

/** Most events recorded by one statement. */
const BATCH = 64;

/**
 * The catalogue's live figures (architecture.md, "Risk and accounting"): a durable consumer of
 * risk-service's `risk.metrics.observed` events (one per observation it records, filter
 * `<prefix>.risk.risk.metrics.observed`) that keeps the latest observation per source and scope in
 * `market_figures`, for `GET /v2/wallets/yield-sources` to read without asking risk-service. The
 * write is convergent (an older observation never replaces a newer one), so no
 * `processed_events` row is kept: a redelivery, a replay or events out of order change nothing.
 * Events that wait are recorded together, one statement a batch.
 */
@Injectable()
export class MarketDataConsumer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private consumer: DurableConsumer<WalletTx> | undefined;

  constructor(
    @Inject(WalletSql) private readonly sql: WalletSql,
    @Inject(SERVICE_CONFIG) private readonly config: WalletConfig,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
    @Inject(NATS_CONNECTION) private readonly connection: NatsConnection,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.consumer = new DurableConsumer<WalletTx>({
      ...(await serviceEventStream(this.config, this.connection, this.logger)),
      durable: MARKET_DATA_DURABLE,
      filterSubject: eventSubject(this.config.EVENTS_SUBJECT_PREFIX, 'risk', 'risk.metrics.observed'),
      ackWaitMs: this.config.WALLET_EVENT_ACK_WAIT_MS,
      db: this.sql,
      batchSize: BATCH,
      idempotentHandler: true,
      handle: (event, tx) => this.record([event], tx),
      handleBatch: (events, tx) => this.record(events, tx),
    });
    await this.consumer.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.consumer?.stop();
  }

  private async record(events: Parameters<typeof marketFiguresOfEvent>[0][], tx: WalletTx): Promise<void> {
    const rows: MarketFigures[] = [];
    for (const event of events) {
      const row = marketFiguresOfEvent(event);
      // Retrying cannot fix a payload; it is skipped so it does not hold the stream back.
      if (row) rows.push(row);
      else this.logger.error({ eventId: event.id, type: event.type }, 'skipping a risk.metrics.observed event that cannot be read');
    }
    await recordMarketFigures(tx, newestPerScope(rows));
  }
}
