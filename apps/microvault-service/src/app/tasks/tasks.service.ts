import { createHash, randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { MicroVaultSubmitReply, MicroVaultTaskDto, MicroVaultTaskKind, Page } from '@service/contracts';
import { ServiceError } from '@service/errors';
import { decodeCursor, encodeCursor, parseLimit, toPage } from '@service/pagination';
import { Prisma, type Task } from '../../generated/prisma/client.js';
import { ChainClient } from '../chain/chain.client.js';
import { PrismaService } from '../prisma.service.js';
import { VaultAccess } from '../vaults/vault-access.js';
import type { PauseTaskInput, StrategyTaskInput } from './task-calls.js';
import { toTaskDto } from './task.mapper.js';
import { TaskWorker } from './task-worker.js';

const LIST = 'microvault.tasks';

export interface NewTask {
  readonly orgId: string;
  readonly vaultId: string;
  readonly kind: MicroVaultTaskKind;
  readonly idempotencyKey: string;
  readonly input: StrategyTaskInput | PauseTaskInput;
}

/** Canonical fingerprint of a request: same key with another vault or body is a conflict. */
function requestHash(task: NewTask): string {
  return createHash('sha256').update(JSON.stringify([task.vaultId, task.kind, task.input])).digest('hex');
}

@Injectable()
export class TasksService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly access: VaultAccess,
    private readonly worker: TaskWorker,
    private readonly chain: ChainClient,
  ) {}

  /**
   * Records a task for the worker, once per idempotency key (per organization and kind): a replay
   * returns the same task, also when two duplicates race (the unique key decides), and another
   * body under the same key is a conflict.
   */
  async submit(task: NewTask): Promise<MicroVaultSubmitReply> {
    await this.access.requireVault(task.orgId, task.vaultId);
    if (!this.chain.canSign) {
      throw new ServiceError('service_temporarily_unavailable', 'Vault changes are unavailable: no operator key is configured.');
    }
    const hash = requestHash(task);
    const existing = await this.findByKey(task);
    if (existing) return { task: toTaskDto(this.replayOf(existing, hash)), replayed: true };
    try {
      const created = await this.prisma.task.create({
        data: {
          id: randomUUID(),
          orgId: task.orgId,
          vaultId: task.vaultId,
          kind: task.kind,
          status: 'submitted',
          idempotencyKey: task.idempotencyKey,
          requestHash: hash,
          input: task.input,
        },
      });
      this.worker.wake();
      return { task: toTaskDto(created), replayed: false };
    } catch (error) {
      if (!(error instanceof Prisma.PrismaClientKnownRequestError) || error.code !== 'P2002') throw error;
      const winner = await this.findByKey(task);
      if (!winner) throw error;
      return { task: toTaskDto(this.replayOf(winner, hash)), replayed: true };
    }
  }

  async get(orgId: string, taskId: string): Promise<MicroVaultTaskDto> {
    await this.access.requireEnabled(orgId);
    const task = await this.prisma.task.findFirst({ where: { id: taskId, orgId } });
    if (!task) throw new ServiceError('task_not_found', `No task ${taskId} in this organization.`);
    return toTaskDto(task);
  }

  /** Newest first, keyset on (createdAt, id). */
  async list(orgId: string, vaultId: string, query: { cursor?: string; limit?: string }): Promise<Page<MicroVaultTaskDto>> {
    await this.access.requireVault(orgId, vaultId);
    const limit = parseLimit(query.limit);
    const filters = { vaultId };
    const where: Prisma.TaskWhereInput = { orgId, vaultId };
    if (query.cursor) {
      const [createdAt, id] = decodeCursor(query.cursor, LIST, filters, 2) as [string, string];
      const at = new Date(createdAt);
      if (Number.isNaN(at.getTime())) throw new ServiceError('invalid_cursor', 'The cursor is malformed.');
      where.OR = [{ createdAt: { lt: at } }, { createdAt: at, id: { lt: id } }];
    }
    const rows = await this.prisma.task.findMany({
      where,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: limit + 1,
    });
    return toPage(rows, limit, (row) => encodeCursor(LIST, filters, [row.createdAt.toISOString(), row.id]), toTaskDto);
  }

  private findByKey(task: NewTask): Promise<Task | null> {
    return this.prisma.task.findUnique({
      where: { orgId_kind_idempotencyKey: { orgId: task.orgId, kind: task.kind, idempotencyKey: task.idempotencyKey } },
    });
  }

  private replayOf(existing: Task, hash: string): Task {
    if (existing.requestHash !== hash) {
      throw new ServiceError(
        'idempotency_key_conflict',
        'This Idempotency-Key was already used with a different request; use a new key for a new request.',
      );
    }
    return existing;
  }
}
