import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ActivityPageDto, ActivityQueryDto, type RequestContext, SUBJECTS } from '@service/contracts';
import type { ForwardedJson } from '@service/nats';
import { ApiStandardErrors } from '../docs/api-errors.js';
import { Operation } from '../docs/operation.js';
import { Ctx } from '../http/request-context.js';
import { ValidQuery } from '../http/validation.js';
import { ServiceRoutes } from '../services.js';

@ApiTags('activity')
@ApiBearerAuth()
@Controller('v2/activity')
export class ActivityController extends ServiceRoutes {
  @Get()
  @Operation('listActivity', {
    summary: "The organization's deposits, withdrawals and rebalances, newest first",
    description:
      'Pages are stable while new activity arrives. 503 `wallet_projection_unavailable` (retryable) when the feed cannot be read.',
  })
  @ApiOkResponse({ type: ActivityPageDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400] })
  list(@Ctx() ctx: RequestContext, @ValidQuery(ActivityQueryDto) query: ActivityQueryDto): Promise<ForwardedJson<ActivityPageDto>> {
    return this.services.forward(SUBJECTS.activity.feedList, { ctx, ...query });
  }
}
