import { Controller, Delete, Get, HttpCode, Inject, NotFoundException, Patch, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import {
  CreateRiskRuleDto,
  DeletedRiskRuleDto,
  InjectRiskMetricsDto,
  NoQueryDto,
  type RequestContext,
  RiskActionDto,
  RiskActionListDto,
  RiskActionListQueryDto,
  RiskAlertListDto,
  RiskAlertListQueryDto,
  RiskMetricsListDto,
  RiskMetricsObservationDto,
  RiskMetricsQueryDto,
  RiskRuleDto,
  RiskRuleListDto,
  RiskRuleListQueryDto,
  SUBJECTS,
  UpdateRiskActionDto,
  UpdateRiskRuleDto,
} from '@service/contracts';
import type { ForwardedJson, SubjectClient } from '@service/nats';
import type { GatewayConfig } from '../../config.js';
import { ApiStandardErrors } from '../docs/api-errors.js';
import { Operation } from '../docs/operation.js';
import { RequiredRoles } from '../docs/required-roles.js';
import { Ctx } from '../http/request-context.js';
import { UuidParam, ValidBody, ValidQuery } from '../http/validation.js';
import { GATEWAY_CONFIG } from '../injection.js';
import { SERVICES_CLIENT, ServiceRoutes } from '../services.js';

/**
 * The risk engine's routes (risk-service). risk-service holds no wallet data, so a rule's wallet
 * is checked here, with wallet-service, before the rule is stored: another organization's wallet
 * is `wallet_not_found`, as on every wallet route.
 */
@ApiTags('risk')
@ApiBearerAuth()
@Controller('v2/wallets/risk')
export class RiskController extends ServiceRoutes {
  @Post('rules')
  @HttpCode(200)
  @Operation('createRiskRule', {
    summary: 'A rule on one yield-source metric of one wallet; a source already in breach opens its alert at once. Owners and admins.',
  })
  @RequiredRoles(SUBJECTS.risk.rulesCreate)
  @ApiOkResponse({ type: RiskRuleDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400, 403, 404] })
  async createRule(
    @Ctx() ctx: RequestContext,
    @ValidQuery(NoQueryDto) _query: NoQueryDto,
    @ValidBody(CreateRiskRuleDto) body: CreateRiskRuleDto,
  ): Promise<ForwardedJson<RiskRuleDto>> {
    await this.services.request(SUBJECTS.wallet.walletsGet, { ctx, walletId: body.portfolioWalletId });
    return this.ask(SUBJECTS.risk.rulesCreate, ctx, body);
  }

  @Get('rules')
  @Operation('listRiskRules', { summary: "The organization's risk rules, newest first" })
  @ApiOkResponse({ type: RiskRuleListDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400] })
  listRules(
    @Ctx() ctx: RequestContext,
    @ValidQuery(RiskRuleListQueryDto) query: RiskRuleListQueryDto,
  ): Promise<ForwardedJson<RiskRuleListDto>> {
    return this.ask(SUBJECTS.risk.rulesList, ctx, query);
  }

  @Patch('rules/:riskRuleId')
  @Operation('updateRiskRule', {
    summary: 'Change a rule; pausing leaves its alert open but inert, re-enabling evaluates it at once. Owners and admins.',
  })
  @RequiredRoles(SUBJECTS.risk.rulesUpdate)
  @ApiOkResponse({ type: RiskRuleDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400, 403, 404] })
  updateRule(
    @Ctx() ctx: RequestContext,
    @ValidQuery(NoQueryDto) _query: NoQueryDto,
    @UuidParam('riskRuleId') riskRuleId: string,
    @ValidBody(UpdateRiskRuleDto) body: UpdateRiskRuleDto,
  ): Promise<ForwardedJson<RiskRuleDto>> {
    return this.ask(SUBJECTS.risk.rulesUpdate, ctx, { riskRuleId, ...body });
  }

  @Delete('rules/:riskRuleId')
  @Operation('deleteRiskRule', {
    summary: 'Delete a rule: its open alert is resolved and its pending actions rejected. Owners and admins.',
  })
  @RequiredRoles(SUBJECTS.risk.rulesDelete)
  @ApiOkResponse({ type: DeletedRiskRuleDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400, 403, 404] })
  deleteRule(
    @Ctx() ctx: RequestContext,
    @ValidQuery(NoQueryDto) _query: NoQueryDto,
    @UuidParam('riskRuleId') riskRuleId: string,
  ): Promise<ForwardedJson<DeletedRiskRuleDto>> {
    return this.ask(SUBJECTS.risk.rulesDelete, ctx, { riskRuleId });
  }

  @Get('alerts')
  @Operation('listRiskAlerts', { summary: "The organization's risk alerts, newest first; `status` ongoing or resolved" })
  @ApiOkResponse({ type: RiskAlertListDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400] })
  listAlerts(
    @Ctx() ctx: RequestContext,
    @ValidQuery(RiskAlertListQueryDto) query: RiskAlertListQueryDto,
  ): Promise<ForwardedJson<RiskAlertListDto>> {
    return this.ask(SUBJECTS.risk.alertsList, ctx, query);
  }

  @Get('actions')
  @Operation('listRiskActions', { summary: "The organization's risk actions, newest first" })
  @ApiOkResponse({ type: RiskActionListDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400] })
  listActions(
    @Ctx() ctx: RequestContext,
    @ValidQuery(RiskActionListQueryDto) query: RiskActionListQueryDto,
  ): Promise<ForwardedJson<RiskActionListDto>> {
    return this.ask(SUBJECTS.risk.actionsList, ctx, query);
  }

  @Patch('actions/:riskActionId')
  @Operation('updateRiskAction', {
    summary: 'Approve or reject an action waiting for approval (`pending_approval`). Owners and admins.',
  })
  @RequiredRoles(SUBJECTS.risk.actionsUpdate)
  @ApiOkResponse({ type: RiskActionDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400, 403, 404, 409] })
  updateAction(
    @Ctx() ctx: RequestContext,
    @ValidQuery(NoQueryDto) _query: NoQueryDto,
    @UuidParam('riskActionId') riskActionId: string,
    @ValidBody(UpdateRiskActionDto) body: UpdateRiskActionDto,
  ): Promise<ForwardedJson<RiskActionDto>> {
    return this.ask(SUBJECTS.risk.actionsUpdate, ctx, { riskActionId, ...body });
  }

  @Get('metrics')
  @Operation('listRiskMetrics', {
    summary: 'Observed yield-source metrics (apy_bps, tvl_usd, available_withdrawal_liquidity_usd): the latest per source by default',
  })
  @ApiOkResponse({ type: RiskMetricsListDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400] })
  listMetrics(
    @Ctx() ctx: RequestContext,
    @ValidQuery(RiskMetricsQueryDto) query: RiskMetricsQueryDto,
  ): Promise<ForwardedJson<RiskMetricsListDto>> {
    return this.ask(SUBJECTS.risk.metricsList, ctx, query);
  }
}

/** `POST /v2/sandbox/risk/metrics`: rehearse an alert end to end; absent (404) in production. */
@ApiTags('risk')
@ApiBearerAuth()
@Controller('v2/sandbox/risk')
export class SandboxRiskController extends ServiceRoutes {
  constructor(
    @Inject(SERVICES_CLIENT) services: SubjectClient,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {
    super(services);
  }

  @Post('metrics')
  @HttpCode(200)
  @Operation('injectSandboxRiskMetrics', {
    summary:
      "Sandbox only: record an observation for the caller's organization now and evaluate its rules on it; it holds until the next injection or `expiresInSeconds` (600). Owners and admins.",
  })
  @RequiredRoles(SUBJECTS.risk.sandboxMetricsInject)
  @ApiOkResponse({ type: RiskMetricsObservationDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400, 403, 404] })
  inject(
    @Ctx() ctx: RequestContext,
    @ValidQuery(NoQueryDto) _query: NoQueryDto,
    @ValidBody(InjectRiskMetricsDto) body: InjectRiskMetricsDto,
  ): Promise<ForwardedJson<RiskMetricsObservationDto>> {
    if (this.config.SERVICE_ENV !== 'sandbox') throw new NotFoundException();
    return this.ask(SUBJECTS.risk.sandboxMetricsInject, ctx, body);
  }
}
