import { Controller } from '@nestjs/common';
import {
  type ApiKeyDto,
  type ApiKeyPageDto,
  type ApiKeyPrincipal,
  type CreatedApiKeyDto,
  type RevokedApiKeyDto,
  SUBJECTS,
  type WireRequestOf,
} from '@service/contracts';
import { Handles } from '@service/service-runtime';
import { ApiKeysService } from './api-keys.service.js';

@Controller()
export class ApiKeysMsController {
  constructor(private readonly keys: ApiKeysService) {}

  @Handles(SUBJECTS.identity.apiKeysCreate)
  create(request: WireRequestOf<typeof SUBJECTS.identity.apiKeysCreate>): Promise<CreatedApiKeyDto> {
    return this.keys.create(request.ctx, { name: request.name, role: request.role, expiresAt: request.expiresAt });
  }

  @Handles(SUBJECTS.identity.apiKeysList)
  list(request: WireRequestOf<typeof SUBJECTS.identity.apiKeysList>): Promise<ApiKeyPageDto> {
    return this.keys.list(request.ctx, { cursor: request.cursor, limit: request.limit });
  }

  @Handles(SUBJECTS.identity.apiKeysGet)
  get(request: WireRequestOf<typeof SUBJECTS.identity.apiKeysGet>): Promise<ApiKeyDto> {
    return this.keys.get(request.ctx, request.keyId);
  }

  @Handles(SUBJECTS.identity.apiKeysRevoke)
  revoke(request: WireRequestOf<typeof SUBJECTS.identity.apiKeysRevoke>): Promise<RevokedApiKeyDto> {
    return this.keys.revoke(request.ctx, request.keyId);
  }

  @Handles(SUBJECTS.identity.apiKeysRoll)
  roll(request: WireRequestOf<typeof SUBJECTS.identity.apiKeysRoll>): Promise<CreatedApiKeyDto> {
    return this.keys.roll(request.ctx, request.keyId, request.expiresInSeconds);
  }

  @Handles(SUBJECTS.identity.apiKeysAuthenticate)
  authenticate(request: WireRequestOf<typeof SUBJECTS.identity.apiKeysAuthenticate>): Promise<ApiKeyPrincipal> {
    return this.keys.authenticateByHash(request.keyHash);
  }
}
