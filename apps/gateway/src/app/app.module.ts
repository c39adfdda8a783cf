import { type DynamicModule, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { shutdownTracing } from '@service/tracing';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { GatewayConfig } from '../config.js';
import { AccountingController, WalletActivityController } from './accounting/accounting.controller.js';
import { ActivityController } from './activity/activity.controller.js';
import { ApprovalsController, TurnkeyController } from './approvals/approvals.controller.js';
import { ApiKeysController } from './api-keys/api-keys.controller.js';
import { DocsController, OpenApiDocument } from './docs/docs.controller.js';
import { GVaultsController } from './gvaults/gvaults.controller.js';
import { HealthController } from './health/health.controller.js';
import { RiskController, SandboxRiskController } from './risk/risk.controller.js';
import { MicroVaultsController } from './microvaults/microvaults.controller.js';
import { servicesClientProvider } from './services.js';
import { SystemController } from './system/system.controller.js';
import { AddressBookController } from './wallets/address-book.controller.js';
import { WalletsController } from './wallets/wallets.controller.js';
import { WithdrawalsController } from './wallets/withdrawals.controller.js';
import { GVaultWebhooksController, WebhookEndpointsController, WebhooksController } from './webhooks/webhooks.controller.js';
import { GATEWAY_CONFIG, GATEWAY_LOGGER, NATS, REDIS } from './injection.js';

class ConnectionCloser implements OnApplicationShutdown {
  constructor(
    @Inject(NATS) private readonly nats: NatsConnection,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    // The HTTP server has finished its in-flight requests by now.
    if (!this.nats.isClosed()) await this.nats.drain();
    this.redis.disconnect();
    // Last: the spans of the requests just finished leave before the process does.
    await shutdownTracing();
  }
}

@Module({})
export class AppModule {
  static forRoot(deps: { config: GatewayConfig; logger: Logger; nats: NatsConnection; redis: Redis }): DynamicModule {
    return {
      module: AppModule,
      controllers: [
        SystemController,
        GVaultsController,
        HealthController,
        DocsController,
        MicroVaultsController,
        WebhooksController,
        WebhookEndpointsController,
        GVaultWebhooksController,
        WalletsController,
        WithdrawalsController,
        AddressBookController,
        ApprovalsController,
        TurnkeyController,
        ActivityController,
        AccountingController,
        WalletActivityController,
        ApiKeysController,
        RiskController,
        SandboxRiskController,
      ],
      providers: [
        { provide: GATEWAY_CONFIG, useValue: deps.config },
        { provide: GATEWAY_LOGGER, useValue: deps.logger },
        { provide: NATS, useValue: deps.nats },
        { provide: REDIS, useValue: deps.redis },
        servicesClientProvider,
        OpenApiDocument,
        ConnectionCloser,
      ],
    };
  }
}
