import { Controller, createParamDecorator, type ExecutionContext, Get, Put, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBearerAuth, ApiHeader, ApiOkResponse, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  IDEMPOTENCY_KEY_MAX_LENGTH,
  MicroVaultPauseDto,
  MicroVaultPauseStatusDto,
  MicroVaultStrategyDto,
  type MicroVaultSubmitReply,
  MicroVaultTaskDto,
  MicroVaultTaskEnvelopeDto,
  MicroVaultTaskPageDto,
  NoQueryDto,
  PageQueryDto,
  type RequestContext,
  SUBJECTS,
} from '@service/contracts';
import { ServiceError } from '@service/errors';
import type { ForwardedJson } from '@service/nats';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiStandardErrors } from '../docs/api-errors.js';
import { Operation } from '../docs/operation.js';
import { RequiredRoles } from '../docs/required-roles.js';
import { Ctx } from '../http/request-context.js';
import { ValidBody, ValidQuery } from '../http/validation.js';
import { ServiceRoutes } from '../services.js';

const UUID_V4 = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-4[0-9a-fA-F]{3}-[89aAbB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$/;

/** A path parameter that must be a version-4 UUID; anything else is 400 `invalid_request`. */
const UuidV4Param = (name: string) =>
  createParamDecorator((_: unknown, host: ExecutionContext) => {
    const value = (host.switchToHttp().getRequest<FastifyRequest>().params as Record<string, string>)[name];
    if (typeof value !== 'string' || !UUID_V4.test(value)) {
      throw new ServiceError('invalid_request', `${name} must be a version-4 UUID.`);
    }
    return value.toLowerCase();
  })();

/** The `Idempotency-Key` header, required, 1 to 200 characters. */
const IdempotencyKey = createParamDecorator((_: unknown, host: ExecutionContext) => {
  const value = host.switchToHttp().getRequest<FastifyRequest>().headers['idempotency-key'];
  if (typeof value !== 'string' || value.length < 1 || value.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
    throw new ServiceError('invalid_request', `Send exactly one Idempotency-Key header of 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters.`);
  }
  return value;
});

const VAULT_ID_PARAM = { name: 'vaultId', description: 'version-4 UUID', schema: { type: 'string', pattern: UUID_V4.source } } as const;
const IDEMPOTENCY_HEADER = {
  name: 'Idempotency-Key',
  required: true,
  description: 'Reuse when retrying the identical request (1 to 200 characters)',
  schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH },
} as const;

@ApiTags('microvaults')
@ApiBearerAuth()
@Controller('v2/microvaults')
export class MicroVaultsController extends ServiceRoutes {
  @Put('vaults/:vaultId/strategy')
  @Operation('setMicroVaultStrategy', {
    summary: "Submit a vault's target allocation as a task (targets plus idle total 10000 bps); owners and admins",
  })
  @RequiredRoles(SUBJECTS.microvault.strategyUpdate)
  @ApiParam(VAULT_ID_PARAM)
  @ApiHeader(IDEMPOTENCY_HEADER)
  @ApiAcceptedResponse({ type: MicroVaultTaskEnvelopeDto, description: 'Accepted: a new task' })
  @ApiOkResponse({ type: MicroVaultTaskEnvelopeDto, description: 'Replay of the same key and body: the same task' })
  @ApiStandardErrors({ microvault: true, statuses: [400, 403, 404, 409, 503] })
  async updateStrategy(
    @Ctx() ctx: RequestContext,
    @UuidV4Param('vaultId') vaultId: string,
    @IdempotencyKey() idempotencyKey: string,
    @ValidBody(MicroVaultStrategyDto) body: MicroVaultStrategyDto,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const allocations = body.allocations.map(({ sourceId, targetBps }) => ({ sourceId, targetBps }));
    const input = { vaultId, idempotencyKey, allocations, idleTargetBps: body.idleTargetBps };
    await this.submit(reply, this.services.request(SUBJECTS.microvault.strategyUpdate, { ctx, ...input }));
  }

  @Put('vaults/:vaultId/pause')
  @Operation('setMicroVaultPause', { summary: 'Pause or resume one vault operation, as a task; owners and admins' })
  @RequiredRoles(SUBJECTS.microvault.pauseSet)
  @ApiParam(VAULT_ID_PARAM)
  @ApiHeader(IDEMPOTENCY_HEADER)
  @ApiAcceptedResponse({ type: MicroVaultTaskEnvelopeDto, description: 'Accepted: a new task' })
  @ApiOkResponse({ type: MicroVaultTaskEnvelopeDto, description: 'Replay of the same key and body: the same task' })
  @ApiStandardErrors({ microvault: true, statuses: [400, 403, 404, 409, 503] })
  async setPause(
    @Ctx() ctx: RequestContext,
    @UuidV4Param('vaultId') vaultId: string,
    @IdempotencyKey() idempotencyKey: string,
    @ValidBody(MicroVaultPauseDto) body: MicroVaultPauseDto,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const input = { vaultId, idempotencyKey, operation: body.operation, paused: body.paused };
    await this.submit(reply, this.services.request(SUBJECTS.microvault.pauseSet, { ctx, ...input }));
  }

  @Get('vaults/:vaultId/pause-status')
  @Operation('getMicroVaultPauseStatus', { summary: "The vault's pause flags, read from the chain" })
  @ApiParam(VAULT_ID_PARAM)
  @ApiOkResponse({ type: MicroVaultPauseStatusDto })
  @ApiStandardErrors({ microvault: true, statuses: [400, 403, 404, 503] })
  pauseStatus(
    @Ctx() ctx: RequestContext,
    @UuidV4Param('vaultId') vaultId: string,
    @ValidQuery(NoQueryDto) _query: NoQueryDto,
  ): Promise<ForwardedJson<MicroVaultPauseStatusDto>> {
    return this.services.forward(SUBJECTS.microvault.pauseStatusGet, { ctx, vaultId });
  }

  @Get('vaults/:vaultId/tasks')
  @Operation('listMicroVaultTasks', { summary: "A vault's tasks, newest first" })
  @ApiParam(VAULT_ID_PARAM)
  @ApiOkResponse({ type: MicroVaultTaskPageDto })
  @ApiStandardErrors({ microvault: true, statuses: [400, 403, 404, 503] })
  listTasks(
    @Ctx() ctx: RequestContext,
    @UuidV4Param('vaultId') vaultId: string,
    @ValidQuery(PageQueryDto) query: PageQueryDto,
  ): Promise<ForwardedJson<MicroVaultTaskPageDto>> {
    const input = { vaultId, cursor: query.cursor, limit: query.limit };
    return this.services.forward(SUBJECTS.microvault.tasksList, { ctx, ...input });
  }

  @Get('tasks/:taskId')
  @Operation('getMicroVaultTask', { summary: 'One task, to follow it to confirmed or failed' })
  @ApiParam({ name: 'taskId', description: 'version-4 UUID', schema: { type: 'string', pattern: UUID_V4.source } })
  @ApiOkResponse({ type: MicroVaultTaskDto })
  @ApiStandardErrors({ microvault: true, statuses: [400, 403, 404, 503] })
  getTask(
    @Ctx() ctx: RequestContext,
    @UuidV4Param('taskId') taskId: string,
    @ValidQuery(NoQueryDto) _query: NoQueryDto,
  ): Promise<ForwardedJson<MicroVaultTaskDto>> {
    return this.services.forward(SUBJECTS.microvault.tasksGet, { ctx, taskId });
  }

  /** 202 for a new task; 200 with the same task when the key and body replay an earlier request. */
  private async submit(reply: FastifyReply, request: Promise<MicroVaultSubmitReply>): Promise<void> {
    const result = await request;
    const body: MicroVaultTaskEnvelopeDto = { task: result.task };
    await reply.status(result.replayed ? 200 : 202).send(body);
  }
}
