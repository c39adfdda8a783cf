import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  GVAULT_IDS,
  GVaultAllowlistDto,
  GVaultAllowlistParamsDto,
  GVaultYieldSourceListDto,
  NoQueryDto,
  type RequestContext,
  SUBJECTS,
} from '@service/contracts';
import type { ForwardedJson } from '@service/nats';
import { ApiStandardErrors } from '../docs/api-errors.js';
import { Operation } from '../docs/operation.js';
import { Ctx } from '../http/request-context.js';
import { ValidParams, ValidQuery } from '../http/validation.js';
import { ServiceRoutes } from '../services.js';

@ApiTags('gtokens')
@ApiBearerAuth()
@Controller('v2/gvaults')
export class GVaultsController extends ServiceRoutes {
  @Get('yield-sources')
  @Operation('listGVaultYieldSources', { summary: 'The gtoken catalogue of this environment (unpaginated)' })
  @ApiOkResponse({ type: GVaultYieldSourceListDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400] })
  yieldSources(@Ctx() ctx: RequestContext, @ValidQuery(NoQueryDto) _query: NoQueryDto): Promise<ForwardedJson<GVaultYieldSourceListDto>> {
    return this.services.forward(SUBJECTS.gvault.yieldSourcesList, { ctx });
  }

  @Get(':gVaultId/allowlist/:address')
  @Operation('checkGVaultAllowlist', {
    summary: 'Whether an address may deposit into the gtoken, from its allowlist contract at a confirmed block',
    description: "Wait until `allowed` is true before submitting a user's deposit transaction.",
  })
  @ApiParam({ name: 'gVaultId', enum: GVAULT_IDS })
  @ApiParam({
    name: 'address',
    description: 'Nonzero EVM address; mixed case must carry a valid EIP-55 checksum',
    schema: { type: 'string', pattern: '^0x(?!0{40}$)[0-9a-fA-F]{40}$', minLength: 42, maxLength: 42 },
  })
  @ApiOkResponse({ type: GVaultAllowlistDto })
  @ApiStandardErrors({ forwarded: true, statuses: [400] })
  allowlist(
    @Ctx() ctx: RequestContext,
    @ValidParams(GVaultAllowlistParamsDto) params: GVaultAllowlistParamsDto,
    @ValidQuery(NoQueryDto) _query: NoQueryDto,
  ): Promise<ForwardedJson<GVaultAllowlistDto>> {
    return this.services.forward(SUBJECTS.gvault.allowlistCheck, { ctx, gVaultId: params.gVaultId, address: params.address });
  }
}
