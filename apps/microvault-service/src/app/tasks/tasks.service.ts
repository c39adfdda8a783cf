import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { MicroVaultSubmitReply, MicroVaultTaskDto, MicroVaultTaskKind, Page } from '@service/contracts';
import { ServiceError } from '@service/errors';
import { NewestFirst } from '@service/pagination';
import type { Task } from '../../generated/prisma/client.js';
import { ChainClient } from '../chain/chain.client.js';
import { TASK_RUNNER } from '../injection.js';
import { TasksRepository } from '../repositories/tasks.repository.js';
import { VaultAccess } from '../vaults/vault-access.js';
import type { PauseTaskInput, StrategyTaskInput } from './task-calls.js';
import { toTaskDto } from './task.mapper.js';
import type { TaskRunner } from './task-runner.js';

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
  return createHash('sha256')
    .update(JSON.stringify([task.vaultId, task.kind, task.input]))
    .digest('hex');
}

@Injectable()
export class TasksService {
  constructor(
    private readonly tasks: TasksRepository,
    private readonly access: VaultAccess,
    @Inject(TASK_RUNNER) private readonly worker: TaskRunner,
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
    const existing = await this.tasks.findByKey(task);
    if (existing) return { task: toTaskDto(this.replayOf(existing, hash)), replayed: true };
    const stored = await this.tasks.createOnce({ ...task, requestHash: hash });
    if (!stored.created) return { task: toTaskDto(this.replayOf(stored.task, hash)), replayed: true };
    this.worker.wake();
    return { task: toTaskDto(stored.task), replayed: false };
  }

  async get(orgId: string, taskId: string): Promise<MicroVaultTaskDto> {
    await this.access.requireEnabled(orgId);
    const task = await this.tasks.findInOrg(orgId, taskId);
    if (!task) throw new ServiceError('task_not_found', `No task ${taskId} in this organization.`);
    return toTaskDto(task);
  }

  /** Newest first, keyset on (createdAt, id). */
  async list(orgId: string, vaultId: string, query: { cursor?: string; limit?: number }): Promise<Page<MicroVaultTaskDto>> {
    await this.access.requireVault(orgId, vaultId);
    const pager = new NewestFirst(LIST, { vaultId }, query);
    return pager.page(await this.tasks.page(orgId, vaultId, pager), toTaskDto);
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
