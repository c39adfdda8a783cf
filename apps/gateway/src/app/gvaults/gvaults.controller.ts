import { Controller, Get, Inject } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { GVaultYieldSourceListDto, NoQueryDto, type RequestContext, SUBJECTS } from '@service/contracts';
import type { NatsRequester } from '@service/nats';
import { ApiStandardErrors } from '../docs/api-errors.js';
import { Ctx } from '../http/request-context.js';
import { ValidQuery } from '../http/validation.js';
import { SERVICE_REQUESTER } from '../services.js';

@ApiTags('gtokens')
@ApiBearerAuth()
@Controller('v2/gvaults')
export class GVaultsController {
  constructor(@Inject(SERVICE_REQUESTER) private readonly services: NatsRequester) {}

  @Get('yield-sources')
  @ApiOperation({ summary: 'The gtoken catalogue of this environment (unpaginated)' })
  @ApiOkResponse({ type: GVaultYieldSourceListDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400] })
  yieldSources(@Ctx() ctx: RequestContext, @ValidQuery(NoQueryDto) _query: NoQueryDto): Promise<GVaultYieldSourceListDto> {
    return this.services.request(SUBJECTS.gvault.yieldSourcesList, { ctx }, { requestId: ctx.requestId });
  }
}
