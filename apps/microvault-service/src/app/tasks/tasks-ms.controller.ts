import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  type MicroVaultPauseInput,
  type MicroVaultStrategyInput,
  type MicroVaultSubmitReply,
  type MicroVaultTaskDto,
  type Page,
  type RpcRequest,
  SUBJECTS,
} from '@service/contracts';
import { checkStrategy } from './strategy-rules.js';
import { TasksService } from './tasks.service.js';

@Controller()
export class TasksMsController {
  constructor(private readonly tasks: TasksService) {}

  @MessagePattern(SUBJECTS.microvault.strategyUpdate)
  updateStrategy(@Payload() request: RpcRequest<MicroVaultStrategyInput>): Promise<MicroVaultSubmitReply> {
    const input = {
      allocations: request.allocations.map(({ sourceId, targetBps }) => ({ sourceId: sourceId.toLowerCase(), targetBps })),
      idleTargetBps: request.idleTargetBps,
    };
    checkStrategy(input);
    return this.tasks.submit({
      orgId: request.ctx.orgId,
      vaultId: request.vaultId,
      kind: 'update_strategy',
      idempotencyKey: request.idempotencyKey,
      input,
    });
  }

  @MessagePattern(SUBJECTS.microvault.pauseSet)
  setPause(@Payload() request: RpcRequest<MicroVaultPauseInput>): Promise<MicroVaultSubmitReply> {
    return this.tasks.submit({
      orgId: request.ctx.orgId,
      vaultId: request.vaultId,
      kind: 'set_pause',
      idempotencyKey: request.idempotencyKey,
      input: { operation: request.operation, paused: request.paused },
    });
  }

  @MessagePattern(SUBJECTS.microvault.tasksGet)
  get(@Payload() request: RpcRequest<{ taskId: string }>): Promise<MicroVaultTaskDto> {
    return this.tasks.get(request.ctx.orgId, request.taskId);
  }

  @MessagePattern(SUBJECTS.microvault.tasksList)
  list(@Payload() request: RpcRequest<{ vaultId: string; cursor?: string; limit?: string }>): Promise<Page<MicroVaultTaskDto>> {
    return this.tasks.list(request.ctx.orgId, request.vaultId, request);
  }
}
