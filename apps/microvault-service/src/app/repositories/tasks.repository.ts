import { counter } from '@service/metrics';
import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { MicroVaultTaskKind } from '@service/contracts';
import type { NewestFirst } from '@service/pagination';
import { Prisma, type Task, type Vault } from '../../generated/prisma/client.js';
import { PrismaService } from '../prisma.service.js';

/** Tasks reaching each status (submitted, broadcast, completed, failed, ...): a few fixed values. */
const taskTransitions = counter({
  name: 'microvault_tasks_total',
  help: 'MicroVault tasks that reached a status, by status.',
  labelNames: ['status'] as const,
});

export type TaskWithVault = Task & { vault: Vault };

/** A task as submitted: one per organization, kind and idempotency key. */
export interface NewTaskRow {
  readonly orgId: string;
  readonly vaultId: string;
  readonly kind: MicroVaultTaskKind;
  readonly idempotencyKey: string;
  readonly requestHash: string;
  readonly input: Prisma.InputJsonValue;
}

export interface SignedTaskTransaction {
  readonly signedTx: string;
  readonly hash: string;
  readonly nonce: number;
}

/** Tasks and the transactions the worker stored for them. */
@Injectable()
export class TasksRepository {
  constructor(private readonly prisma: PrismaService) {}

  findByKey(key: Pick<NewTaskRow, 'orgId' | 'kind' | 'idempotencyKey'>): Promise<Task | null> {
    return this.prisma.task.findUnique({
      where: { orgId_kind_idempotencyKey: { orgId: key.orgId, kind: key.kind, idempotencyKey: key.idempotencyKey } },
    });
  }

  /**
   * Creates the task as `submitted`, or, when another request stored one under the same key first
   * (the unique key decides a race), resolves to that one with `created: false`.
   */
  async createOnce(task: NewTaskRow): Promise<{ task: Task; created: boolean }> {
    try {
      const created = await this.prisma.task.create({ data: { id: randomUUID(), status: 'submitted', ...task } });
      taskTransitions.labels('submitted').inc();
      return { task: created, created: true };
    } catch (error) {
      if (!(error instanceof Prisma.PrismaClientKnownRequestError) || error.code !== 'P2002') throw error;
      const winner = await this.findByKey(task);
      if (!winner) throw error;
      return { task: winner, created: false };
    }
  }

  findInOrg(orgId: string, taskId: string): Promise<Task | null> {
    return this.prisma.task.findFirst({ where: { id: taskId, orgId } });
  }

  /** A vault's tasks, newest first, as `pager` reads them. */
  page(orgId: string, vaultId: string, pager: NewestFirst): Promise<Task[]> {
    return this.prisma.task.findMany({ where: { orgId, vaultId, ...pager.where }, orderBy: pager.orderBy, take: pager.take });
  }

  /** Tasks with a stored transaction not settled yet, in nonce order. */
  withStoredTransaction(): Promise<TaskWithVault[]> {
    return this.prisma.task.findMany({
      where: { status: { in: ['submitted', 'broadcast'] }, signedTx: { not: null } },
      include: { vault: true },
      orderBy: { nonce: 'asc' },
    });
  }

  /** Stored transactions the node has not accepted yet. */
  countUnsent(): Promise<number> {
    return this.prisma.task.count({ where: { status: 'submitted', signedTx: { not: null } } });
  }

  /** The oldest tasks without a transaction. */
  unsigned(limit: number): Promise<TaskWithVault[]> {
    return this.prisma.task.findMany({
      where: { status: 'submitted', signedTx: null },
      include: { vault: true },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      take: limit,
    });
  }

  /** Stores the signed transaction of a task that has none yet. */
  storeSigned(taskId: string, signed: SignedTaskTransaction): Promise<TaskWithVault> {
    return this.prisma.task.update({
      where: { id: taskId, status: 'submitted', signedTx: null },
      data: { signedTx: signed.signedTx, txHash: signed.hash, nonce: signed.nonce },
      include: { vault: true },
    });
  }

  async setStatus(taskId: string, status: string, error: string | null): Promise<void> {
    await this.prisma.task.update({ where: { id: taskId }, data: { status, error } });
    taskTransitions.labels(status).inc();
  }
}
