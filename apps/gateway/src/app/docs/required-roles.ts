import { applyDecorators } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import { ROLES, type Role } from '@service/contracts';

/**
 * The roles that may call a route, for the OpenAPI document (`x-required-roles`). The service
 * enforces the rule (`forbidden` for another role); a route open to every role says so too.
 */
export function RequiredRoles(...roles: Role[]) {
  return applyDecorators(ApiExtension('x-required-roles', roles.length > 0 ? roles : [...ROLES]));
}

/** Owners and admins only: allocations, payout actions, address-book writes. */
export const OWNERS_AND_ADMINS: Role[] = ['owner', 'admin'];
