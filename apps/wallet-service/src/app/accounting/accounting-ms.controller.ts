import { Controller, Inject } from '@nestjs/common';
import {
  type AccountingActivityPageDto,
  type PeriodSummaryDto,
  SUBJECTS,
  type WalletActivityPageDto,
  type WireRequestOf,
} from '@service/contracts';
import { Handles } from '@service/service-runtime';
import { AccountingService } from './accounting.service.js';

@Controller()
export class AccountingMsController {
  constructor(@Inject(AccountingService) private readonly accounting: AccountingService) {}

  @Handles(SUBJECTS.wallet.accountingPeriodSummary)
  periodSummary({ ctx, ...input }: WireRequestOf<typeof SUBJECTS.wallet.accountingPeriodSummary>): Promise<PeriodSummaryDto> {
    return this.accounting.periodSummary(ctx, input);
  }

  @Handles(SUBJECTS.wallet.accountingActivity)
  activity({ ctx, ...input }: WireRequestOf<typeof SUBJECTS.wallet.accountingActivity>): Promise<AccountingActivityPageDto> {
    return this.accounting.activity(ctx, input);
  }

  @Handles(SUBJECTS.wallet.walletActivityList)
  walletActivity({ ctx, ...input }: WireRequestOf<typeof SUBJECTS.wallet.walletActivityList>): Promise<WalletActivityPageDto> {
    return this.accounting.walletActivity(ctx, input);
  }
}
