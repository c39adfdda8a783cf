import { Injectable } from '@nestjs/common';
import type { RiskActionStatus } from '@service/contracts';
import { enqueueEvent, type NewEvent } from '@service/events';
import type { DomainEventType } from '@service/contracts';
import type { KeysetPage } from '@service/pagination';
import type { MetricObservation, Prisma, RiskAction, RiskAlert, RiskRule } from '../../generated/prisma/client.js';
import { PrismaService } from '../prisma.service.js';

/** The client or a transaction of it. */
export type Db = PrismaService | Prisma.TransactionClient;

export type NewObservation = Omit<MetricObservation, never>;

/** Rows after a keyset page's cursor by (`field`, id), in its order. */
function after(page: KeysetPage, field: 'createdAt' | 'triggeredAt'): object {
  if (!page.after) return {};
  const at = new Date(page.after.createdAt);
  const beyond = page.order === 'desc' ? 'lt' : 'gt';
  return { OR: [{ [field]: { [beyond]: at } }, { [field]: at, id: { [beyond]: page.after.id } }] };
}

/** Every SQL of risk-service's tables. */
@Injectable()
export class RiskRepository {
  constructor(readonly prisma: PrismaService) {}

  /** `work` in one transaction, holding the evaluation lock of every source named (in a fixed order). */
  inSourceTransaction<T>(sourceIds: readonly string[], work: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(async (tx) => {
      for (const sourceId of [...new Set(sourceIds)].sort()) {
        await tx.$executeRawUnsafe('SELECT pg_advisory_xact_lock(hashtext($1))', `risk-source:${sourceId}`);
      }
      return work(tx);
    });
  }

  async enqueue<T extends DomainEventType>(tx: Db, event: NewEvent<T>): Promise<void> {
    await enqueueEvent(tx, event);
  }

  // --- observations ---------------------------------------------------------------------------

  /**
   * Records an observation and, in the same transaction (`db` is one), the `risk.metrics.observed`
   * event its caller announces it with (`observedEventOf`), in the outbox.
   */
  async insertObservation(db: Db, row: NewObservation, event: NewEvent<'risk.metrics.observed'>): Promise<MetricObservation> {
    const observation = await db.metricObservation.create({ data: row });
    await enqueueEvent(db, event);
    return observation;
  }

  /** The latest provider reading of a source at or before `at`. */
  latestReading(db: Db, yieldSourceId: string, at: Date): Promise<MetricObservation | null> {
    return db.metricObservation.findFirst({
      where: { yieldSourceId, orgId: null, recordedAt: { lte: at } },
      orderBy: [{ recordedAt: 'desc' }, { id: 'desc' }],
    });
  }

  /** The organization's latest injection on a source, if it still holds at `at`. */
  async heldInjection(db: Db, orgId: string, yieldSourceId: string, at: Date): Promise<MetricObservation | null> {
    const latest = await db.metricObservation.findFirst({
      where: { yieldSourceId, orgId, recordedAt: { lte: at } },
      orderBy: [{ recordedAt: 'desc' }, { id: 'desc' }],
    });
    return latest?.expiresAt && latest.expiresAt > at ? latest : null;
  }

  /** What the organization sees of a source at `at`: its injection while it holds, else the provider's latest reading. */
  async visible(db: Db, orgId: string, yieldSourceId: string, at: Date): Promise<MetricObservation | null> {
    return (await this.heldInjection(db, orgId, yieldSourceId, at)) ?? this.latestReading(db, yieldSourceId, at);
  }

  /** Organizations whose injection on a source holds at `at`: a provider reading does not evaluate their rules. */
  async heldOrganizations(db: Db, yieldSourceId: string, at: Date): Promise<Set<string>> {
    const rows = await db.$queryRawUnsafe<{ org_id: string; expires_at: Date | null }[]>(
      `SELECT DISTINCT ON (org_id) org_id, expires_at FROM metric_observations
        WHERE yield_source_id = $1 AND org_id IS NOT NULL AND recorded_at <= $2
        ORDER BY org_id, recorded_at DESC, id DESC`,
      yieldSourceId,
      at,
    );
    return new Set(rows.filter((row) => row.expires_at !== null && row.expires_at > at).map((row) => row.org_id));
  }

  /**
   * The baseline of a velocity rule: the latest observation at or before `before` among the
   * provider's readings (and, for an organization, its own injections).
   */
  baseline(db: Db, orgId: string | null, yieldSourceId: string, before: Date): Promise<MetricObservation | null> {
    return db.metricObservation.findFirst({
      where: { yieldSourceId, recordedAt: { lte: before }, ...(orgId === null ? { orgId: null } : { OR: [{ orgId: null }, { orgId }] }) },
      orderBy: [{ recordedAt: 'desc' }, { id: 'desc' }],
    });
  }

  /** Observations of a source an organization sees (provider readings and its injections), newest first. */
  series(
    db: Db,
    orgId: string,
    yieldSourceId: string,
    range: { startAt?: Date; endAt?: Date },
    limit: number,
  ): Promise<MetricObservation[]> {
    return db.metricObservation.findMany({
      where: {
        yieldSourceId,
        OR: [{ orgId: null }, { orgId }],
        recordedAt: { ...(range.startAt ? { gte: range.startAt } : {}), ...(range.endAt ? { lte: range.endAt } : {}) },
      },
      orderBy: [{ recordedAt: 'desc' }, { id: 'desc' }],
      take: limit,
    });
  }

  /** When the provider last read a source (to skip a reading another replica just made). */
  async lastReadingAt(yieldSourceId: string): Promise<Date | null> {
    const row = await this.prisma.metricObservation.findFirst({
      where: { yieldSourceId, orgId: null },
      orderBy: { recordedAt: 'desc' },
      select: { recordedAt: true },
    });
    return row?.recordedAt ?? null;
  }

  // --- rules ----------------------------------------------------------------------------------

  insertRule(db: Db, row: Prisma.RiskRuleUncheckedCreateInput): Promise<RiskRule> {
    return db.riskRule.create({ data: row });
  }

  /** A rule of the organization not deleted, locked for the transaction; null otherwise. */
  async lockRule(db: Db, orgId: string, id: string): Promise<RiskRule | null> {
    const rows = await db.$queryRawUnsafe<{ id: string }[]>(
      'SELECT id FROM risk_rules WHERE id = $1::uuid AND org_id = $2 AND deleted_at IS NULL FOR UPDATE',
      id,
      orgId,
    );
    return rows.length === 0 ? null : db.riskRule.findUnique({ where: { id } });
  }

  findRule(db: Db, orgId: string, id: string): Promise<RiskRule | null> {
    return db.riskRule.findFirst({ where: { id, orgId, deletedAt: null } });
  }

  updateRule(db: Db, id: string, data: Prisma.RiskRuleUncheckedUpdateInput): Promise<RiskRule> {
    return db.riskRule.update({ where: { id }, data });
  }

  /** The active rules on a source (of one organization, or every one): what an observation of it evaluates. */
  activeRulesOfSource(db: Db, yieldSourceId: string, orgId?: string): Promise<RiskRule[]> {
    return db.riskRule.findMany({ where: { yieldSourceId, status: 'active', deletedAt: null, ...(orgId ? { orgId } : {}) } });
  }

  rulesPage(orgId: string, filters: { walletIds?: string[]; status?: string }, page: KeysetPage): Promise<RiskRule[]> {
    return this.prisma.riskRule.findMany({
      where: {
        orgId,
        deletedAt: null,
        ...(filters.walletIds ? { walletId: { in: filters.walletIds } } : {}),
        ...(filters.status ? { status: filters.status } : {}),
        ...after(page, 'createdAt'),
      },
      orderBy: [{ createdAt: page.order }, { id: page.order }],
      take: page.take,
    });
  }

  // --- alerts ---------------------------------------------------------------------------------

  insertAlert(db: Db, row: Prisma.RiskAlertUncheckedCreateInput): Promise<RiskAlert> {
    return db.riskAlert.create({ data: row });
  }

  ongoingAlertsOfSource(db: Db, yieldSourceId: string): Promise<RiskAlert[]> {
    return db.riskAlert.findMany({ where: { yieldSourceId, status: 'ongoing' } });
  }

  ongoingAlertOfRule(db: Db, ruleId: string): Promise<RiskAlert | null> {
    return db.riskAlert.findFirst({ where: { ruleId, status: 'ongoing' } });
  }

  resolveAlert(db: Db, id: string, at: Date, source: string, note: string | null): Promise<RiskAlert> {
    return db.riskAlert.update({
      where: { id },
      data: { status: 'resolved', resolvedAt: at, resolutionSource: source, resolutionNote: note },
    });
  }

  alertsPage(orgId: string, filters: { walletIds?: string[]; status?: string }, page: KeysetPage): Promise<RiskAlert[]> {
    return this.prisma.riskAlert.findMany({
      where: {
        orgId,
        ...(filters.walletIds ? { walletId: { in: filters.walletIds } } : {}),
        ...(filters.status ? { status: filters.status } : {}),
        ...after(page, 'triggeredAt'),
      },
      orderBy: [{ triggeredAt: page.order }, { id: page.order }],
      take: page.take,
    });
  }

  // --- actions --------------------------------------------------------------------------------

  insertAction(db: Db, row: Prisma.RiskActionUncheckedCreateInput): Promise<RiskAction> {
    return db.riskAction.create({ data: row });
  }

  /** An action of the organization, locked for the transaction; null otherwise. */
  async lockAction(db: Db, orgId: string, id: string): Promise<RiskAction | null> {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return null;
    const rows = await db.$queryRawUnsafe<{ id: string }[]>(
      'SELECT id FROM risk_actions WHERE id = $1::uuid AND org_id = $2 FOR UPDATE',
      id,
      orgId,
    );
    return rows.length === 0 ? null : db.riskAction.findUnique({ where: { id } });
  }

  /** Actions of an alert (or of a rule) in one of `statuses`. */
  actionsIn(db: Db, where: { alertId?: string; ruleId?: string }, statuses: readonly RiskActionStatus[]): Promise<RiskAction[]> {
    return db.riskAction.findMany({ where: { ...where, status: { in: [...statuses] } } });
  }

  /** Open actions of an alert that carry no decision of their own: executed blocks, lifted when it resolves. */
  executedBlocksOf(db: Db, alertId: string): Promise<RiskAction[]> {
    return db.riskAction.findMany({
      where: { alertId, status: 'executed', resolvedAt: null, action: { startsWith: 'block_rebalance_buy' } },
    });
  }

  updateAction(db: Db, id: string, data: Prisma.RiskActionUncheckedUpdateInput): Promise<RiskAction> {
    return db.riskAction.update({ where: { id }, data });
  }

  actionsPage(
    orgId: string,
    filters: { walletIds?: string[]; status?: string; actions?: string[] },
    page: KeysetPage,
  ): Promise<RiskAction[]> {
    return this.prisma.riskAction.findMany({
      where: {
        orgId,
        ...(filters.walletIds ? { walletId: { in: filters.walletIds } } : {}),
        ...(filters.status ? { status: filters.status } : {}),
        ...(filters.actions ? { action: { in: filters.actions } } : {}),
        ...after(page, 'createdAt'),
      },
      orderBy: [{ createdAt: page.order }, { id: page.order }],
      take: page.take,
    });
  }
}
