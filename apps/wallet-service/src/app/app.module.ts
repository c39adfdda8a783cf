import { type DynamicModule, Module } from '@nestjs/common';
import { defineServiceModule } from '@service/service-runtime';
import type { Logger } from 'pino';
import { type WalletConfig, withWalletDefaults } from '../config.js';
import { AccountingMsController } from './accounting/accounting-ms.controller.js';
import { AccountingService } from './accounting/accounting.service.js';
import { ApprovalsMsController } from './approvals/approvals-ms.controller.js';
import { ApprovalsService } from './approvals/approvals.service.js';
import { TurnkeyService } from './approvals/turnkey.service.js';
import { AddressBookMsController } from './address-book/address-book-ms.controller.js';
import { AddressBookService } from './address-book/address-book.service.js';
import { DepositAddressesMsController } from './deposit-addresses/deposit-addresses-ms.controller.js';
import { DepositAddressesService } from './deposit-addresses/deposit-addresses.service.js';
import { DepositsMsController } from './deposits/deposits-ms.controller.js';
import { DepositsService } from './deposits/deposits.service.js';
import { WalletEnvironment } from './environment/wallet-environment.js';
import { WORK_WAKER } from './injection.js';
import { RebalancesMsController } from './rebalances/rebalances-ms.controller.js';
import { RebalancesService } from './rebalances/rebalances.service.js';
import { PrismaService } from './repositories/prisma.service.js';
import { WalletSql } from './repositories/wallet-sql.js';
import { SandboxMsController } from './sandbox/sandbox-ms.controller.js';
import { SandboxService } from './sandbox/sandbox.service.js';
import { WalletsMsController } from './wallets/wallets-ms.controller.js';
import { WalletsService } from './wallets/wallets.service.js';
import { WithdrawalsMsController } from './withdrawals/withdrawals-ms.controller.js';
import { WithdrawalsService } from './withdrawals/withdrawals.service.js';
import { WorkflowSteps } from './workflows/workflow-steps.js';
import { WorkflowWorker } from './workflows/workflow-worker.js';
import { RiskConsumer } from './workflows/risk-consumer.js';
import { MarketDataConsumer } from './workflows/market-data-consumer.js';
import { catalogueProvider } from './yield-sources/catalogue.provider.js';
import { YieldSourcesMsController } from './yield-sources/yield-sources-ms.controller.js';

@Module({})
export class AppModule {
  static forRoot(config: WalletConfig, logger: Logger): DynamicModule {
    return defineServiceModule(AppModule, {
      name: 'wallet',
      config: withWalletDefaults(config),
      logger,
      prisma: PrismaService,
      // The relay's batch statement prepared once per connection, not planned again for every batch.
      relayDb: WalletSql,
      controllers: [
        YieldSourcesMsController,
        WalletsMsController,
        AccountingMsController,
        DepositsMsController,
        RebalancesMsController,
        WithdrawalsMsController,
        AddressBookMsController,
        DepositAddressesMsController,
        ApprovalsMsController,
        SandboxMsController,
      ],
      providers: [
        WalletEnvironment,
        WalletSql,
        catalogueProvider,
        WalletsService,
        AccountingService,
        DepositsService,
        RebalancesService,
        WithdrawalsService,
        AddressBookService,
        DepositAddressesService,
        ApprovalsService,
        TurnkeyService,
        SandboxService,
        WorkflowSteps,
        WorkflowWorker,
        // The risk events' projection (allocation blocks, exits): a durable consumer of `events.risk.portfolio_wallet.>`.
        RiskConsumer,
        // The catalogue's live figures: a durable consumer of risk-service's `risk.metrics.observed`.
        MarketDataConsumer,
        // Features wake the worker through this token, so none of them imports the workflow layer.
        { provide: WORK_WAKER, useExisting: WorkflowWorker },
      ],
    });
  }
}
