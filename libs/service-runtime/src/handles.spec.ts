import { describe, expect, it } from '@jest/globals';
import { PATTERN_METADATA } from '@nestjs/microservices/constants.js';
import {
  type GVaultAllowlistDto,
  type HealthReply,
  ROLES,
  type RequestContext,
  type Role,
  SUBJECT_ROLES,
  SUBJECTS,
  type Subject,
  type WireRequestOf,
} from '@service/contracts';
import { Handles } from './handles.js';

type Check = WireRequestOf<typeof SUBJECTS.gvault.allowlistCheck>;

class Handlers {
  @Handles(SUBJECTS.gvault.allowlistCheck)
  check(request: Check): GVaultAllowlistDto {
    return { allowed: request.address.length > 0 };
  }

  @Handles(SUBJECTS.gvault.health)
  health(): Promise<HealthReply> {
    return Promise.resolve({ service: 'gvault', status: 'ok' });
  }
}

/** A handler of `subject` that answers `handled` with its request, declared as a service declares one. */
function handlerOf(subject: Subject): (request: { ctx: RequestContext }) => unknown {
  class Handler {
    handle(request: { ctx: RequestContext }) {
      return { handled: request };
    }
  }
  const descriptor = Object.getOwnPropertyDescriptor(Handler.prototype, 'handle')!;
  (Handles(subject) as (target: object, key: string, descriptor: PropertyDescriptor) => void)(Handler.prototype, 'handle', descriptor);
  Object.defineProperty(Handler.prototype, 'handle', descriptor);
  const handler = new Handler();
  expect(Reflect.getMetadata(PATTERN_METADATA, descriptor.value)).toEqual([subject]);
  return (request) => handler.handle(request);
}

const ctxOf = (role: Role): RequestContext => ({ orgId: 'org_roles', principalId: 'user_1', role, requestId: 'r1' });

describe('@Handles', () => {
  it("registers the method as Nest's message handler of the subject", () => {
    expect(Reflect.getMetadata(PATTERN_METADATA, Handlers.prototype.check)).toEqual([SUBJECTS.gvault.allowlistCheck]);
    expect(Reflect.getMetadata(PATTERN_METADATA, Handlers.prototype.health)).toEqual([SUBJECTS.gvault.health]);
  });

  const subjects = Object.keys(SUBJECT_ROLES) as Subject[];

  it.each(subjects.filter((subject) => SUBJECT_ROLES[subject].refusal !== undefined))(
    'refuses a role %s does not declare, with forbidden and its refusal',
    (subject) => {
      const handle = handlerOf(subject);
      const { roles, refusal } = SUBJECT_ROLES[subject];
      expect(roles).not.toContain('member');
      for (const role of ROLES) {
        const request = { ctx: ctxOf(role) };
        if (roles.includes(role)) expect(handle(request)).toEqual({ handled: request });
        else expect(() => handle(request)).toThrow(expect.objectContaining({ code: 'forbidden', message: refusal }));
      }
      expect(() => handle({} as { ctx: RequestContext })).toThrow(expect.objectContaining({ code: 'forbidden', message: refusal }));
    },
  );

  it.each(subjects.filter((subject) => SUBJECT_ROLES[subject].refusal === undefined))('lets every role call %s', (subject) => {
    const handle = handlerOf(subject);
    expect(SUBJECT_ROLES[subject].roles).toEqual(ROLES);
    for (const role of ROLES) expect(handle({ ctx: ctxOf(role) })).toEqual({ handled: { ctx: ctxOf(role) } });
  });
});

/**
 * Type-level checks, run by `npm test`'s type check (tsc): each handler below drifts from the
 * contract on the service's side only, so each decorator must fail to compile. An unused
 * `@ts-expect-error` fails the type check, so these cannot pass by accident.
 */
export class DriftingHandlers {
  // @ts-expect-error the response lacks `allowed`
  @Handles(SUBJECTS.gvault.allowlistCheck)
  wrongResponse(_request: Check): { permitted: boolean } {
    return { permitted: true };
  }

  // @ts-expect-error the request needs a field the gateway does not send
  @Handles(SUBJECTS.gvault.allowlistCheck)
  extraField(_request: Check & { chain: string }): GVaultAllowlistDto {
    return { allowed: true };
  }

  // @ts-expect-error the request drops an optional field the contract has (cursor)
  @Handles(SUBJECTS.wallet.walletsList)
  droppedOptional(_request: Omit<WireRequestOf<typeof SUBJECTS.wallet.walletsList>, 'cursor'>): never {
    throw new Error('never called');
  }

  // @ts-expect-error a field of another type (walletId as a number)
  @Handles(SUBJECTS.wallet.walletsGet)
  wrongFieldType(_request: { ctx: Check['ctx']; walletId: number }): never {
    throw new Error('never called');
  }

  // @ts-expect-error the handler of another subject's request
  @Handles(SUBJECTS.wallet.walletsGet)
  otherSubject(_request: Check): never {
    throw new Error('never called');
  }
}
