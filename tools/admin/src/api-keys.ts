import { CreateApiKeyDto, type CreatedApiKeyDto, ROLES, type Role, SUBJECTS } from '@service/contracts';
import { ServiceError } from '@service/errors';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { type OperatorNats, operatorContext, operatorRequest } from './operator.js';

export function isRole(value: string | undefined): value is Role {
  return (ROLES as readonly string[]).includes(value ?? '');
}

/**
 * Bootstrap: a key for an organization that has none yet (its first owner key), created by the
 * operator as an owner of the organization. Prints nothing; the caller shows the key once.
 */
export async function createApiKey(
  nats: string | OperatorNats,
  input: { orgId: string; role: Role; name: string; expiresAt?: string },
): Promise<CreatedApiKeyDto> {
  // The checks the gateway makes on POST /v2/api-keys, which this request does not go through.
  const body = plainToInstance(CreateApiKeyDto, { name: input.name, role: input.role, expiresAt: input.expiresAt });
  const problem = validateSync(body, { forbidUnknownValues: false })[0];
  if (problem) throw new ServiceError('validation_error', Object.values(problem.constraints ?? {}).join('; '));
  return operatorRequest(nats, SUBJECTS.identity.apiKeysCreate, { ctx: operatorContext(input.orgId), ...body });
}
