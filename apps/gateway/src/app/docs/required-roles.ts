import { SetMetadata, applyDecorators } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import { EVERY_ROLE, SUBJECT_ROLES, type Subject } from '@service/contracts';

/** The subject a route's `@RequiredRoles` names (undefined: the route reaches no service). */
export const ROUTE_SUBJECT = 'gateway:route-subject';

/**
 * The roles that may call a route, for the OpenAPI document (`x-required-roles`): those the
 * contract declares for the subject the route asks (`SUBJECT_ROLES`), which the service enforces
 * (`forbidden` for another role). A route that reaches no service names none: open to every role.
 */
export function RequiredRoles(subject?: Subject) {
  const { roles } = subject === undefined ? EVERY_ROLE : SUBJECT_ROLES[subject];
  return applyDecorators(SetMetadata(ROUTE_SUBJECT, subject), ApiExtension('x-required-roles', [...roles]));
}
