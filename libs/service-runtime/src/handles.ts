import { MessagePattern } from '@nestjs/microservices';
import type { HandlerOf, Subject, TakesRequestOf } from '@service/contracts';

/**
 * Declares a message handler of `subject`, typed from the contract in `@service/contracts`: the
 * method must take exactly the subject's wire request (`{ctx} & RequestOf<S>`, or nothing) and
 * return its response. A handler that drifts from the contract does not compile (TypeScript
 * reports "Unable to resolve signature of method decorator"); write its parameter as
 * `WireRequestOf<typeof SUBJECTS.x.y>`.
 */
export function Handles<S extends Subject>(subject: S) {
  const pattern = MessagePattern(subject);
  return <M extends HandlerOf<S>>(target: object, key: string | symbol, descriptor: TypedPropertyDescriptor<M> & TakesRequestOf<S, M>): void => {
    pattern(target, key, descriptor);
  };
}
