import { MessagePattern } from '@nestjs/microservices';
import {
  type HandlerOf,
  type RequestContext,
  type Role,
  type Subject,
  SUBJECT_ROLES,
  type TakesRequestOf,
  refusalOf,
} from '@service/contracts';
import { ServiceError } from '@service/errors';

/** Refuses a role that `subject`'s rule in the contract (`SUBJECT_ROLES`) does not let call it: `forbidden`. */
export function requireRole(subject: Subject, role: Role | undefined): void {
  const refusal = refusalOf(subject, role);
  if (refusal !== undefined) throw new ServiceError('forbidden', refusal);
}

/**
 * Declares a message handler of `subject`, typed from the contract in `@service/contracts`: the
 * method must take exactly the subject's wire request (`{ctx} & RequestOf<S>`, or nothing) and
 * return its response. A handler that drifts from the contract does not compile (TypeScript
 * reports "Unable to resolve signature of method decorator"); write its parameter as
 * `WireRequestOf<typeof SUBJECTS.x.y>`.
 *
 * A subject open to only some roles (`SUBJECT_ROLES`) refuses any other `ctx.role` with
 * `forbidden` before the method runs.
 */
export function Handles<S extends Subject>(subject: S) {
  const pattern = MessagePattern(subject);
  return <M extends HandlerOf<S>>(
    target: object,
    key: string | symbol,
    descriptor: TypedPropertyDescriptor<M> & TakesRequestOf<S, M>,
  ): void => {
    const handler = descriptor.value;
    if (SUBJECT_ROLES[subject].refusal !== undefined && handler !== undefined) {
      const guarded = function (this: unknown, ...args: Parameters<M>) {
        requireRole(subject, (args[0] as { readonly ctx?: RequestContext } | undefined)?.ctx?.role);
        return handler.apply(this, args);
      };
      Object.defineProperty(guarded, 'name', { value: handler.name });
      // What decorators below this one attached to the method stays attached to it.
      for (const metadataKey of Reflect.getOwnMetadataKeys(handler))
        Reflect.defineMetadata(metadataKey, Reflect.getOwnMetadata(metadataKey, handler), guarded);
      descriptor.value = guarded as unknown as M;
    }
    pattern(target, key, descriptor);
  };
}
