import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { RebalanceObject, RiskActionStatus, RiskComparator, RiskMetric, RiskRuleKind } from '@service/contracts';
import type { MetricObservation, Prisma, RiskAction, RiskAlert, RiskRule } from '../../generated/prisma/client.js';
import { initialActionStatus, PENDING_ACTION_STATUSES } from '../domain/actions.js';
import { exitProgressOf } from '../domain/exits.js';
import { evaluate, explanationOf, type Evaluation, type MetricFigures, type RuleCondition } from '../domain/rules.js';
import { spellingOfStored } from '../domain/spelling.js';
import { figuresOf, toActionDto, toAlertDto } from '../domain/views.js';
import { RiskRepository } from '../repositories/risk.repository.js';

type Tx = Prisma.TransactionClient;

export const conditionOf = (rule: RiskRule): RuleCondition => ({
  metric: rule.metric as RiskMetric,
  ruleKind: rule.ruleKind as RiskRuleKind,
  comparator: rule.comparator as RiskComparator,
  thresholdValue: rule.thresholdValue,
  windowSeconds: rule.windowSeconds,
});

/**
 * Evaluates rules on observations and writes what follows (alerts, actions, their events) in the
 * caller's transaction, which holds the source's evaluation lock: one ongoing alert per rule,
 * opened on the first breaching reading and resolved (`auto`) on the first safe one.
 */
@Injectable()
export class EngineService {
  constructor(private readonly repository: RiskRepository) {}

  /**
   * An observation of a source: the active rules on that source only (of the injecting
   * organization for an injection; of every organization whose injection does not hold for a
   * provider reading).
   */
  async onObservation(tx: Tx, observation: MetricObservation): Promise<number> {
    const at = observation.recordedAt;
    const rules = await this.repository.activeRulesOfSource(tx, observation.yieldSourceId, observation.orgId ?? undefined);
    if (rules.length === 0) return 0;
    const held =
      observation.orgId === null ? await this.repository.heldOrganizations(tx, observation.yieldSourceId, at) : new Set<string>();
    const ongoing = new Map(
      (await this.repository.ongoingAlertsOfSource(tx, observation.yieldSourceId)).map((alert) => [alert.ruleId, alert]),
    );
    const baselines = new Map<number, Promise<MetricObservation | null>>();
    const baselineOf = (windowSeconds: number) => {
      let baseline = baselines.get(windowSeconds);
      if (!baseline) {
        baseline = this.repository.baseline(
          tx,
          observation.orgId,
          observation.yieldSourceId,
          new Date(at.getTime() - windowSeconds * 1000),
        );
        baselines.set(windowSeconds, baseline);
      }
      return baseline;
    };
    let evaluated = 0;
    for (const rule of rules) {
      if (held.has(rule.orgId)) continue;
      const baseline = rule.windowSeconds === null ? null : await baselineOf(rule.windowSeconds);
      await this.apply(tx, rule, observation, baseline, ongoing.get(rule.id) ?? null);
      evaluated += 1;
    }
    return evaluated;
  }

  /** A rule created, re-enabled or changed: evaluated at once on what its organization sees of the source. */
  async backEvaluate(tx: Tx, rule: RiskRule, at: Date): Promise<void> {
    const observation = await this.repository.visible(tx, rule.orgId, rule.yieldSourceId, at);
    if (!observation) return;
    const baseline =
      rule.windowSeconds === null
        ? null
        : await this.repository.baseline(
            tx,
            observation.orgId,
            rule.yieldSourceId,
            new Date(observation.recordedAt.getTime() - rule.windowSeconds * 1000),
          );
    await this.apply(tx, rule, observation, baseline, await this.repository.ongoingAlertOfRule(tx, rule.id));
  }

  private async apply(
    tx: Tx,
    rule: RiskRule,
    observation: MetricObservation,
    baseline: MetricObservation | null,
    ongoing: RiskAlert | null,
  ) {
    const figures: MetricFigures = figuresOf(observation);
    const result = evaluate(conditionOf(rule), figures, baseline ? figuresOf(baseline) : undefined);
    if (!result) return;
    if (result.breaching && !ongoing) await this.open(tx, rule, observation, result);
    else if (!result.breaching && ongoing) await this.resolve(tx, ongoing, new Date(), 'auto', null);
  }

  private async open(tx: Tx, rule: RiskRule, observation: MetricObservation, result: Evaluation): Promise<void> {
    const now = new Date();
    const alert = await this.repository.insertAlert(tx, {
      id: randomUUID(),
      orgId: rule.orgId,
      walletId: rule.walletId,
      ruleId: rule.id,
      yieldSourceId: rule.yieldSourceId,
      observationId: observation.id,
      metric: rule.metric,
      ruleKind: rule.ruleKind,
      severity: rule.severity,
      status: 'ongoing',
      thresholdValue: rule.thresholdValue,
      observedValue: result.observedValue,
      baselineValue: result.baselineValue,
      observedChangeBps: result.observedChangeBps,
      windowSeconds: rule.windowSeconds,
      explanation: explanationOf(conditionOf(rule), result, rule.yieldSourceId) as Prisma.InputJsonValue,
      triggeredAt: now,
    });
    await this.repository.enqueue(tx, {
      type: 'portfolio_wallet.risk.alert.triggered',
      orgId: rule.orgId,
      payload: {
        event: 'portfolio_wallet.risk.alert.triggered',
        observedAt: now.toISOString(),
        walletId: rule.walletId,
        alert: toAlertDto(alert),
      },
    });
    const spelling = spellingOfStored(rule.action);
    const status = initialActionStatus(spelling);
    if (!status) return;
    const action = await this.repository.insertAction(tx, {
      id: randomUUID(),
      orgId: rule.orgId,
      walletId: rule.walletId,
      ruleId: rule.id,
      alertId: alert.id,
      yieldSourceId: rule.yieldSourceId,
      action: rule.action,
      status,
      approvalRequired: spelling.approvalMode === 'approval_required',
      explanation: {
        summary: `${spelling.outcome} on ${rule.yieldSourceId}: ${String((alert.explanation as { summary?: string }).summary ?? '')}`,
      },
      createdAt: now,
      updatedAt: now,
      executedAt: status === 'executed' ? now : null,
    });
    await this.actionChanged(tx, action, now);
    // Automatic: the engine starts it at once (wallet-service runs an exit on `executing`).
    if (status === 'pending_auto_execution') await this.setActionStatus(tx, action.id, 'executing', now);
  }

  /**
   * A wallet rebalance event about the exit it runs (its `requestId` is the action id): the
   * action carries the rebalance, becomes `executed` when it completes (and the unwind completed
   * goes out) or `failed` when it fails. Only an `executing` action moves; anything else is
   * ignored (a late or repeated event).
   */
  async onExitRebalance(tx: Tx, orgId: string, rebalance: RebalanceObject, observedAt: Date): Promise<void> {
    const action = await this.repository.lockAction(tx, orgId, rebalance.requestId);
    if (!action || spellingOfStored(action.action).outcome !== 'exit_position' || action.status !== 'executing') return;
    const progress = exitProgressOf(rebalance, action.yieldSourceId, observedAt);
    const now = new Date();
    if (progress.kind === 'running') {
      if (action.rebalanceId === null)
        await this.repository.updateAction(tx, action.id, { rebalanceId: progress.rebalanceId, updatedAt: now });
      return;
    }
    if (progress.kind === 'failed') {
      await this.repository.updateAction(tx, action.id, {
        rebalanceId: progress.rebalanceId,
        executionError: progress.executionError as Prisma.InputJsonValue,
      });
      await this.setActionStatus(tx, action.id, 'failed', now);
      return;
    }
    await this.repository.updateAction(tx, action.id, { rebalanceId: progress.rebalanceId });
    await this.setActionStatus(tx, action.id, 'executed', progress.completedAt);
    await this.repository.enqueue(tx, {
      type: 'portfolio_wallet.risk.unwind.completed',
      orgId: action.orgId,
      payload: {
        event: 'portfolio_wallet.risk.unwind.completed',
        observedAt: now.toISOString(),
        walletId: action.walletId,
        unwind: {
          actionId: action.id,
          rebalanceId: progress.rebalanceId,
          yieldSourceId: action.yieldSourceId,
          amountUsd: progress.amountUsd,
          completedAt: progress.completedAt.toISOString(),
        },
      },
    });
  }

  /** Resolves an alert, rejects the actions still pending on it and lifts its executed blocks. */
  async resolve(tx: Tx, alert: RiskAlert, at: Date, source: string, note: string | null): Promise<void> {
    const resolved = await this.repository.resolveAlert(tx, alert.id, at, source, note);
    await this.repository.enqueue(tx, {
      type: 'portfolio_wallet.risk.alert.resolved',
      orgId: resolved.orgId,
      payload: {
        event: 'portfolio_wallet.risk.alert.resolved',
        observedAt: at.toISOString(),
        walletId: resolved.walletId,
        alert: toAlertDto(resolved),
      },
    });
    await this.rejectPending(tx, { alertId: alert.id }, at);
    for (const block of await this.repository.executedBlocksOf(tx, alert.id)) {
      await this.repository.updateAction(tx, block.id, { resolvedAt: at, updatedAt: at });
    }
  }

  /** Rejects the pending actions of an alert or a rule (resolved alert; paused, changed or deleted rule). */
  async rejectPending(tx: Tx, where: { alertId?: string; ruleId?: string }, at: Date): Promise<void> {
    for (const action of await this.repository.actionsIn(tx, where, PENDING_ACTION_STATUSES)) {
      await this.setActionStatus(tx, action.id, 'rejected', at);
    }
  }

  async setActionStatus(tx: Tx, id: string, status: RiskActionStatus, at: Date): Promise<RiskAction> {
    const terminal = status === 'rejected' || status === 'failed';
    const action = await this.repository.updateAction(tx, id, {
      status,
      updatedAt: at,
      ...(terminal ? { resolvedAt: at } : {}),
      ...(status === 'executed' ? { executedAt: at } : {}),
    });
    await this.actionChanged(tx, action, at);
    return action;
  }

  /** Announces `action` as it now stands (the row its write returned). */
  private async actionChanged(tx: Tx, action: RiskAction, at: Date): Promise<void> {
    await this.repository.enqueue(tx, {
      type: 'portfolio_wallet.risk.action.status_changed',
      orgId: action.orgId,
      payload: {
        event: 'portfolio_wallet.risk.action.status_changed',
        observedAt: at.toISOString(),
        walletId: action.walletId,
        action: toActionDto(action),
      },
    });
  }
}
