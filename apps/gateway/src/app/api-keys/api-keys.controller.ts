import { Controller, Delete, Get, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiCreatedResponse, ApiOkResponse, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  ApiKeyDto,
  ApiKeyPageDto,
  CreateApiKeyDto,
  CreatedApiKeyDto,
  NoQueryDto,
  PageQueryDto,
  type RequestContext,
  RevokedApiKeyDto,
  RollApiKeyDto,
  SUBJECTS,
} from '@service/contracts';
import type { ForwardedJson } from '@service/nats';
import { ApiStandardErrors } from '../docs/api-errors.js';
import { RequiredRoles } from '../docs/required-roles.js';
import { Operation } from '../docs/operation.js';
import { Ctx } from '../http/request-context.js';
import { UuidParam, ValidBody, ValidQuery } from '../http/validation.js';
import { ServiceRoutes } from '../services.js';

const ROLE_RULE = 'Owners and admins only (a `member` token or key gets 403 `forbidden`).';
const OWNER_KEY_RULE = 'Only an owner may create, roll or revoke an `owner` key (an admin gets 403 `forbidden`).';

/**
 * Organization API keys, owned by identity-service: the gateway validates and forwards; the
 * service applies the role rules (see `x-required-roles`).
 */
@ApiTags('api-keys')
@ApiBearerAuth()
@Controller('v2/api-keys')
export class ApiKeysController extends ServiceRoutes {
  @Post()
  @HttpCode(201)
  @Operation('createApiKey', {
    summary: 'Create a secret API key for the organization; the response is the only time the key is shown',
    description: `${ROLE_RULE} ${OWNER_KEY_RULE} Send the key as \`Authorization: Bearer <key>\`: it acts with its role in this organization.`,
  })
  @ApiBody({ type: CreateApiKeyDto })
  @ApiCreatedResponse({ type: CreatedApiKeyDto })
  @RequiredRoles(SUBJECTS.identity.apiKeysCreate)
  @ApiStandardErrors({ forwarded: true, statuses: [400, 403] })
  create(
    @Ctx() ctx: RequestContext,
    @ValidQuery(NoQueryDto) _query: NoQueryDto,
    @ValidBody(CreateApiKeyDto) body: CreateApiKeyDto,
  ): Promise<ForwardedJson<CreatedApiKeyDto>> {
    return this.services.forward(SUBJECTS.identity.apiKeysCreate, { ctx, ...body });
  }

  @Get()
  @Operation('listApiKeys', {
    summary: "The organization's keys that were not revoked, newest first (never the secret)",
    description: ROLE_RULE,
  })
  @ApiOkResponse({ type: ApiKeyPageDto })
  @RequiredRoles(SUBJECTS.identity.apiKeysList)
  @ApiStandardErrors({ forwarded: true, statuses: [400, 403] })
  list(@Ctx() ctx: RequestContext, @ValidQuery(PageQueryDto) query: PageQueryDto): Promise<ForwardedJson<ApiKeyPageDto>> {
    return this.services.forward(SUBJECTS.identity.apiKeysList, { ctx, ...query });
  }

  @Get(':id')
  @Operation('getApiKey', { summary: 'One key (never the secret)', description: ROLE_RULE })
  @ApiParam({ name: 'id', format: 'uuid' })
  @ApiOkResponse({ type: ApiKeyDto })
  @RequiredRoles(SUBJECTS.identity.apiKeysGet)
  @ApiStandardErrors({ forwarded: true, statuses: [400, 403, 404] })
  get(
    @Ctx() ctx: RequestContext,
    @ValidQuery(NoQueryDto) _query: NoQueryDto,
    @UuidParam('id') keyId: string,
  ): Promise<ForwardedJson<ApiKeyDto>> {
    return this.services.forward(SUBJECTS.identity.apiKeysGet, { ctx, keyId });
  }

  @Delete(':id')
  @Operation('revokeApiKey', {
    summary: 'Revoke a key: every gateway refuses it within a second',
    description: `${ROLE_RULE} ${OWNER_KEY_RULE}`,
  })
  @ApiParam({ name: 'id', format: 'uuid' })
  @ApiOkResponse({ type: RevokedApiKeyDto })
  @RequiredRoles(SUBJECTS.identity.apiKeysRevoke)
  @ApiStandardErrors({ forwarded: true, statuses: [400, 403, 404] })
  revoke(
    @Ctx() ctx: RequestContext,
    @ValidQuery(NoQueryDto) _query: NoQueryDto,
    @UuidParam('id') keyId: string,
  ): Promise<ForwardedJson<RevokedApiKeyDto>> {
    return this.services.forward(SUBJECTS.identity.apiKeysRevoke, { ctx, keyId });
  }

  @Post(':id/roll')
  @HttpCode(201)
  @Operation('rollApiKey', {
    summary:
      'Replace a key by a new one of the same name and role; the old one works for expiresInSeconds more (default 0: revoked at once)',
    description: `${ROLE_RULE} ${OWNER_KEY_RULE} The new key is shown only in this response.`,
  })
  @ApiParam({ name: 'id', format: 'uuid' })
  @ApiBody({ type: RollApiKeyDto, required: false })
  @ApiCreatedResponse({ type: CreatedApiKeyDto })
  @RequiredRoles(SUBJECTS.identity.apiKeysRoll)
  @ApiStandardErrors({ forwarded: true, statuses: [400, 403, 404] })
  roll(
    @Ctx() ctx: RequestContext,
    @ValidQuery(NoQueryDto) _query: NoQueryDto,
    @UuidParam('id') keyId: string,
    @ValidBody(RollApiKeyDto) body: RollApiKeyDto,
  ): Promise<ForwardedJson<CreatedApiKeyDto>> {
    return this.services.forward(SUBJECTS.identity.apiKeysRoll, { ctx, ...body, keyId });
  }
}
