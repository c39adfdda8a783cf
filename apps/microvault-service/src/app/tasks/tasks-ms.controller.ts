import { Controller } from '@nestjs/common';
import {
  type MicroVaultSubmitReply,
  type MicroVaultTaskDto,
  type MicroVaultTaskPageDto,
  SUBJECTS,
  type WireRequestOf,
} from '@service/contracts';
import { Handles } from '@service/service-runtime';
import { checkStrategy } from './strategy-rules.js';
import { TasksService } from './tasks.service.js';

@Controller()
export class TasksMsController {
  constructor(private readonly tasks: TasksService) {}

  @Handles(SUBJECTS.microvault.strategyUpdate)
  updateStrategy(request: WireRequestOf<typeof SUBJECTS.microvault.strategyUpdate>): Promise<MicroVaultSubmitReply> {
    // One spelling per source, so a replay in another case is the same request and a duplicate is found.
    const input = {
      allocations: request.allocations.map(({ sourceId, targetBps }) => ({ sourceId: sourceId.toLowerCase(), targetBps })),
      idleTargetBps: request.idleTargetBps,
    };
    // The gateway checks each field alone; the total and uniqueness are rules of the whole strategy.
    checkStrategy(input);
    return this.tasks.submit({
      orgId: request.ctx.orgId,
      vaultId: request.vaultId,
      kind: 'update_strategy',
      idempotencyKey: request.idempotencyKey,
      input,
    });
  }

  @Handles(SUBJECTS.microvault.pauseSet)
  setPause(request: WireRequestOf<typeof SUBJECTS.microvault.pauseSet>): Promise<MicroVaultSubmitReply> {
    return this.tasks.submit({
      orgId: request.ctx.orgId,
      vaultId: request.vaultId,
      kind: 'set_pause',
      idempotencyKey: request.idempotencyKey,
      input: { operation: request.operation, paused: request.paused },
    });
  }

  @Handles(SUBJECTS.microvault.tasksGet)
  get(request: WireRequestOf<typeof SUBJECTS.microvault.tasksGet>): Promise<MicroVaultTaskDto> {
    return this.tasks.get(request.ctx.orgId, request.taskId);
  }

  @Handles(SUBJECTS.microvault.tasksList)
  list(request: WireRequestOf<typeof SUBJECTS.microvault.tasksList>): Promise<MicroVaultTaskPageDto> {
    return this.tasks.list(request.ctx.orgId, request.vaultId, request);
  }
}
