import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { RequestContext } from '@service/contracts';
import { ServiceError } from '@service/errors';
import type { FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the auth hook on every authenticated route; null elsewhere. */
    ctx: RequestContext | null;
    requestId: string;
    /** `performance.now()` when the request came in. */
    startedAt: number;
  }
}

/**
 * The caller's context, put on the request by the auth hook. A handler that finds none (a route
 * marked public by mistake) refuses the call as unauthenticated rather than failing.
 */
export function contextOf(request: FastifyRequest): RequestContext {
  if (!request.ctx) throw new ServiceError('unauthenticated', 'This route needs a bearer credential.');
  return request.ctx;
}

/** The caller's context as a handler parameter (see {@link contextOf}). */
export const Ctx = createParamDecorator((_: unknown, host: ExecutionContext): RequestContext =>
  contextOf(host.switchToHttp().getRequest<FastifyRequest>()),
);
