import { Controller } from '@nestjs/common';
import {
  type DeletedRiskRuleDto,
  type RiskActionDto,
  type RiskActionListDto,
  type RiskAlertListDto,
  type RiskMetricsListDto,
  type RiskMetricsObservationDto,
  type RiskRuleDto,
  type RiskRuleListDto,
  SUBJECTS,
  type WireRequestOf,
} from '@service/contracts';
import { Handles } from '@service/service-runtime';
import { MarketDataService } from '../market-data/market-data.service.js';
import { RulesService } from './rules.service.js';

@Controller()
export class RiskMsController {
  constructor(
    private readonly rules: RulesService,
    private readonly marketData: MarketDataService,
  ) {}

  @Handles(SUBJECTS.risk.rulesCreate)
  createRule({ ctx, ...input }: WireRequestOf<typeof SUBJECTS.risk.rulesCreate>): Promise<RiskRuleDto> {
    return this.rules.create(ctx, input);
  }

  @Handles(SUBJECTS.risk.rulesList)
  listRules({ ctx, ...input }: WireRequestOf<typeof SUBJECTS.risk.rulesList>): Promise<RiskRuleListDto> {
    return this.rules.list(ctx, input);
  }

  @Handles(SUBJECTS.risk.rulesUpdate)
  updateRule({ ctx, ...input }: WireRequestOf<typeof SUBJECTS.risk.rulesUpdate>): Promise<RiskRuleDto> {
    return this.rules.update(ctx, input);
  }

  @Handles(SUBJECTS.risk.rulesDelete)
  deleteRule({ ctx, ...input }: WireRequestOf<typeof SUBJECTS.risk.rulesDelete>): Promise<DeletedRiskRuleDto> {
    return this.rules.delete(ctx, input);
  }

  @Handles(SUBJECTS.risk.alertsList)
  listAlerts({ ctx, ...input }: WireRequestOf<typeof SUBJECTS.risk.alertsList>): Promise<RiskAlertListDto> {
    return this.rules.alerts(ctx, input);
  }

  @Handles(SUBJECTS.risk.actionsList)
  listActions({ ctx, ...input }: WireRequestOf<typeof SUBJECTS.risk.actionsList>): Promise<RiskActionListDto> {
    return this.rules.actions(ctx, input);
  }

  @Handles(SUBJECTS.risk.actionsUpdate)
  updateAction({ ctx, ...input }: WireRequestOf<typeof SUBJECTS.risk.actionsUpdate>): Promise<RiskActionDto> {
    return this.rules.decide(ctx, input);
  }

  @Handles(SUBJECTS.risk.metricsList)
  listMetrics({ ctx, ...input }: WireRequestOf<typeof SUBJECTS.risk.metricsList>): Promise<RiskMetricsListDto> {
    return this.marketData.list(ctx, input);
  }

  @Handles(SUBJECTS.risk.sandboxMetricsInject)
  injectMetrics({ ctx, ...input }: WireRequestOf<typeof SUBJECTS.risk.sandboxMetricsInject>): Promise<RiskMetricsObservationDto> {
    return this.marketData.inject(ctx, input);
  }
}
