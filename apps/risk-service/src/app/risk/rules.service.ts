import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  type DeletedRiskRuleDto,
  type RequestContext,
  type RequestOf,
  RISK_LIST_DEFAULT_LIMIT,
  type RiskActionDto,
  type RiskActionListDto,
  type RiskAlertListDto,
  type RiskRuleDto,
  type RiskRuleListDto,
  type SUBJECTS,
} from '@service/contracts';
import { ServiceError } from '@service/errors';
import { KeysetPage } from '@service/pagination';
import { SERVICE_CONFIG } from '@service/service-runtime';
import type { RiskConfig } from '../../config.js';
import { decide } from '../domain/actions.js';
import { sourceOf } from '../domain/catalogue.js';
import { checkCondition, type RuleCondition } from '../domain/rules.js';
import { resolveSpelling, RISK_OUTCOME_ACTIONS, spellingOfAction, spellingOfStored, storedAction } from '../domain/spelling.js';
import { toActionDto, toAlertDto, toRuleDto } from '../domain/views.js';
import { RiskRepository } from '../repositories/risk.repository.js';
import { conditionOf, EngineService } from './engine.service.js';

type Input<S extends keyof typeof SUBJECTS.risk> = RequestOf<(typeof SUBJECTS.risk)[S]>;

const ruleNotFound = () => new ServiceError('risk_rule_not_found', 'Risk rule not found.');

/** Rules, alerts and actions as the organization manages and reads them. */
@Injectable()
export class RulesService {
  constructor(
    private readonly repository: RiskRepository,
    private readonly engine: EngineService,
    @Inject(SERVICE_CONFIG) private readonly config: RiskConfig,
  ) {}

  async create(ctx: RequestContext, input: Input<'rulesCreate'>): Promise<RiskRuleDto> {
    if (!sourceOf(this.config.SERVICE_ENV, input.yieldSourceId)) {
      throw new ServiceError('yield_source_not_found', `Yield source ${input.yieldSourceId} is not in the catalogue.`);
    }
    const condition: RuleCondition = {
      metric: input.metric,
      ruleKind: input.ruleKind,
      comparator: input.comparator,
      thresholdValue: input.thresholdValue,
      windowSeconds: input.windowSeconds ?? null,
    };
    checkCondition(condition);
    const spelling = resolveSpelling(input) ?? spellingOfAction('alert_only');
    const now = new Date();
    return this.repository.inSourceTransaction([input.yieldSourceId], async (tx) => {
      const rule = await this.repository.insertRule(tx, {
        id: randomUUID(),
        orgId: ctx.orgId,
        walletId: input.portfolioWalletId,
        yieldSourceId: input.yieldSourceId,
        name: input.name ?? null,
        ...condition,
        severity: input.severity ?? 'warning',
        action: storedAction(spelling),
        status: input.status ?? 'active',
        createdAt: now,
        updatedAt: now,
      });
      if (rule.status === 'active') await this.engine.backEvaluate(tx, rule, now);
      return toRuleDto(rule);
    });
  }

  async list(ctx: RequestContext, input: Input<'rulesList'>): Promise<RiskRuleListDto> {
    const filters = { walletIds: input.portfolioWalletIds, status: input.status };
    const page = new KeysetPage('risk-rules', filters, input, { defaultLimit: RISK_LIST_DEFAULT_LIMIT });
    const rows = await this.repository.rulesPage(ctx.orgId, filters, page);
    return page.page(rows, toRuleDto);
  }

  async update(ctx: RequestContext, input: Input<'rulesUpdate'>): Promise<RiskRuleDto> {
    const existing = await this.repository.findRule(this.repository.prisma, ctx.orgId, input.riskRuleId);
    if (!existing) throw ruleNotFound();
    return this.repository.inSourceTransaction([existing.yieldSourceId], async (tx) => {
      const rule = await this.repository.lockRule(tx, ctx.orgId, input.riskRuleId);
      if (!rule) throw ruleNotFound();
      const current = conditionOf(rule);
      const ruleKind = input.ruleKind ?? current.ruleKind;
      const condition: RuleCondition = {
        metric: input.metric ?? current.metric,
        ruleKind,
        comparator: input.comparator ?? current.comparator,
        thresholdValue: input.thresholdValue ?? current.thresholdValue,
        // Switching to an absolute rule drops the window unless one is given (and refused).
        windowSeconds:
          input.windowSeconds !== undefined
            ? input.windowSeconds
            : ruleKind === 'absolute' && input.ruleKind
              ? null
              : current.windowSeconds,
      };
      checkCondition(condition);
      const given = resolveSpelling(input);
      const action = given ? storedAction(given) : rule.action;
      const status = input.status ?? rule.status;
      const changed =
        JSON.stringify(condition) !== JSON.stringify(current) ||
        action !== rule.action ||
        (input.severity ?? rule.severity) !== rule.severity;
      const now = new Date();
      const updated = await this.repository.updateRule(tx, rule.id, {
        ...condition,
        ...(input.name !== undefined ? { name: input.name } : {}),
        severity: input.severity ?? rule.severity,
        action,
        status,
        updatedAt: now,
      });
      // Pausing or changing a rule cancels what waits on it; the alert stays (inert while paused).
      if (changed || (status === 'paused' && rule.status === 'active')) await this.engine.rejectPending(tx, { ruleId: rule.id }, now);
      if (status === 'active' && (changed || rule.status === 'paused')) await this.engine.backEvaluate(tx, updated, now);
      return toRuleDto(updated);
    });
  }

  async delete(ctx: RequestContext, input: Input<'rulesDelete'>): Promise<DeletedRiskRuleDto> {
    const existing = await this.repository.findRule(this.repository.prisma, ctx.orgId, input.riskRuleId);
    if (!existing) throw ruleNotFound();
    return this.repository.inSourceTransaction([existing.yieldSourceId], async (tx) => {
      const rule = await this.repository.lockRule(tx, ctx.orgId, input.riskRuleId);
      if (!rule) throw ruleNotFound();
      const now = new Date();
      const ongoing = await this.repository.ongoingAlertOfRule(tx, rule.id);
      if (ongoing) await this.engine.resolve(tx, ongoing, now, 'rule_deleted', 'The rule was deleted.');
      await this.engine.rejectPending(tx, { ruleId: rule.id }, now);
      await this.repository.updateRule(tx, rule.id, { deletedAt: now, updatedAt: now });
      return { id: rule.id, deleted: true };
    });
  }

  async alerts(ctx: RequestContext, input: Input<'alertsList'>): Promise<RiskAlertListDto> {
    const filters = { walletIds: input.portfolioWalletIds, status: input.status };
    const page = new KeysetPage('risk-alerts', filters, input, { defaultLimit: RISK_LIST_DEFAULT_LIMIT });
    const rows = await this.repository.alertsPage(ctx.orgId, filters, page);
    return page.page(
      rows.map((row) => ({ createdAt: row.triggeredAt, id: row.id, row })),
      ({ row }) => toAlertDto(row),
    );
  }

  async actions(ctx: RequestContext, input: Input<'actionsList'>): Promise<RiskActionListDto> {
    const actions = input.action ? [input.action] : input.outcome ? RISK_OUTCOME_ACTIONS[input.outcome] : [];
    if (input.action && input.outcome && !RISK_OUTCOME_ACTIONS[input.outcome].includes(input.action)) {
      throw new ServiceError('validation_error', `action ${input.action} is not of the ${input.outcome} outcome.`);
    }
    const stored = actions.length === 0 ? undefined : [...new Set(actions.flatMap((each) => [each, `${each}:approval_required`]))];
    const filters = { walletIds: input.portfolioWalletIds, status: input.status, actions: stored };
    const page = new KeysetPage('risk-actions', filters, input, { defaultLimit: RISK_LIST_DEFAULT_LIMIT });
    const rows = await this.repository.actionsPage(ctx.orgId, filters, page);
    return page.page(rows, toActionDto);
  }

  async decide(ctx: RequestContext, input: Input<'actionsUpdate'>): Promise<RiskActionDto> {
    return this.repository.prisma.$transaction(async (tx) => {
      const action = await this.repository.lockAction(tx, ctx.orgId, input.riskActionId);
      if (!action) throw new ServiceError('risk_action_not_found', 'Risk action not found.');
      const status = decide(spellingOfStored(action.action), action.status as RiskActionDto['status'], input.status);
      return toActionDto(await this.engine.setActionStatus(tx, action.id, status, new Date()));
    });
  }
}
