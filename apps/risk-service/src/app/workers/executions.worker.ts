import { type BeforeApplicationShutdown, Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { DurableConsumer } from '@service/events';
import { NATS_CONNECTION, OutboxRelayService, SERVICE_CONFIG, SERVICE_LOGGER, serviceEventStream } from '@service/service-runtime';
import type { TransactionalSql } from '@service/sql';
import type { Logger } from 'pino';
import type { RiskConfig } from '../../config.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { PrismaService } from '../prisma.service.js';
import { EngineService } from '../risk/engine.service.js';

/** The durable of risk-service's exit tracking (NATS permissions: k8s/base/nats/nats-server.conf). */
export const EXECUTIONS_DURABLE = 'risk-executions';

/**
 * Follows the rebalances wallet-service runs for exit actions: a durable consumer of
 * `<prefix>.wallet.portfolio_wallet.rebalance.status_changed` (shared by replicas) hands each
 * event to {@link EngineService.onExitRebalance}, in a transaction that records it in
 * `processed_events`, so a redelivery changes nothing. Rebalances that run no exit are ignored.
 */
@Injectable()
export class ExecutionsWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private consumer: DurableConsumer<Prisma.TransactionClient> | undefined;

  constructor(
    private readonly prisma: PrismaService,
    private readonly engine: EngineService,
    private readonly relay: OutboxRelayService,
    @Inject(SERVICE_CONFIG) private readonly config: RiskConfig,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
    @Inject(NATS_CONNECTION) private readonly connection: NatsConnection,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.consumer = new DurableConsumer<Prisma.TransactionClient>({
      ...(await serviceEventStream(this.config, this.connection, this.logger)),
      durable: EXECUTIONS_DURABLE,
      filterSubject: `${this.config.EVENTS_SUBJECT_PREFIX}.wallet.portfolio_wallet.rebalance.status_changed`,
      db: this.prisma as unknown as TransactionalSql<Prisma.TransactionClient>,
      handle: async (event, tx) => {
        if (event.type !== 'portfolio_wallet.rebalance.status_changed') return;
        const { rebalance, observedAt } = event.payload;
        if (!rebalance || typeof rebalance.requestId !== 'string') return;
        await this.engine.onExitRebalance(tx, event.orgId, rebalance, new Date(observedAt ?? event.occurredAt));
        this.relay.wake();
      },
    });
    await this.consumer.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.consumer?.stop();
  }
}
