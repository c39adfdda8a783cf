import { type BeforeApplicationShutdown, Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { DurableConsumer } from '@service/events';
import { NATS_CONNECTION, OutboxRelayService, SERVICE_CONFIG, SERVICE_LOGGER, serviceEventStream } from '@service/service-runtime';
import type { TransactionalSql } from '@service/sql';
import type { Logger } from 'pino';
import type { WalletConfig } from '../../config.js';
import { WalletEnvironment } from '../environment/wallet-environment.js';
import { WORK_WAKER, type WorkWaker } from '../injection.js';
import { WalletSql, type WalletTx } from '../repositories/wallet-sql.js';
import { applyRiskEvent } from '../risk/risk-projection.js';

/** The durable of wallet-service's risk projection (NATS permissions: k8s/base/nats/nats-server.conf). */
export const RISK_DURABLE = 'wallet-risk';

/**
 * wallet-service's projection of the risk engine (architecture.md, "Risk and accounting"): a
 * durable consumer of risk-service's events (`<prefix>.risk.portfolio_wallet.>`) that keeps the allocation blocks
 * and starts the exit rebalances ({@link applyRiskEvent}). Each event is applied once, in a
 * transaction that records it in `processed_events` (a redelivery or a restart finds it there);
 * the write path (allocate, strategy, deposits) only reads the blocks, it never calls risk-service.
 * One event per transaction, one transaction at a time (replicas share the durable; the blocks'
 * writes also take a lock per alert). After a transaction that wrote an exit rebalance commits,
 * the outbox relay and the workflow worker are woken.
 */
@Injectable()
export class RiskConsumer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private consumer: DurableConsumer<WalletTx> | undefined;
  /** The transaction running wrote an exit rebalance. */
  private wrote = false;

  constructor(
    @Inject(WalletSql) private readonly sql: WalletSql,
    @Inject(WalletEnvironment) private readonly env: WalletEnvironment,
    @Inject(OutboxRelayService) private readonly relay: OutboxRelayService,
    @Inject(WORK_WAKER) private readonly worker: WorkWaker,
    @Inject(SERVICE_CONFIG) private readonly config: WalletConfig,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
    @Inject(NATS_CONNECTION) private readonly connection: NatsConnection,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.consumer = new DurableConsumer<WalletTx>({
      ...(await serviceEventStream(this.config, this.connection, this.logger)),
      durable: RISK_DURABLE,
      // The `portfolio_wallet.risk.*` events only: `risk.metrics.observed` (one per observation) is the market-data consumer's.
      filterSubject: `${this.config.EVENTS_SUBJECT_PREFIX}.risk.portfolio_wallet.>`,
      ackWaitMs: this.config.WALLET_EVENT_ACK_WAIT_MS,
      db: this.wakingSql(),
      handle: async (event, tx) => {
        // The service's clock (`WALLET_CLOCK_OFFSET_MS` in the sandbox), as every money movement's.
        const applied = await applyRiskEvent(tx, event, { env: this.env, logger: this.logger, now: this.env.now() });
        if (applied.wrote) this.wrote = true;
      },
    });
    await this.consumer.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.consumer?.stop();
  }

  /** The wallet's pool, whose transactions wake the relay and the worker once they commit an exit. */
  private wakingSql(): TransactionalSql<WalletTx> {
    const sql = this.sql;
    return {
      $queryRawUnsafe: <T>(query: string, ...values: unknown[]) => sql.$queryRawUnsafe<T>(query, ...values),
      $executeRawUnsafe: (query, ...values) => sql.$executeRawUnsafe(query, ...values),
      $transaction: async <R>(work: (tx: WalletTx) => Promise<R>): Promise<R> => {
        this.wrote = false;
        try {
          const result = await sql.$transaction(work);
          if (this.wrote) {
            this.relay.wake();
            this.worker.kick();
          }
          return result;
        } finally {
          this.wrote = false;
        }
      },
    };
  }
}
