import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { RequestContext } from '@service/contracts';
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

/** The caller's context, put on the request by the auth hook. */
export const Ctx = createParamDecorator((_: unknown, host: ExecutionContext): RequestContext => {
  const request = host.switchToHttp().getRequest<FastifyRequest>();
  if (!request.ctx) throw new Error('Ctx used on a route without authentication');
  return request.ctx;
});
