import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set by {@link Public}: the route answers without a credential. */
    public?: boolean;
  }
}

/**
 * Marks a route that answers without a credential (the probes, the scrape and the documents).
 * Authentication is decided by the route Fastify matched, never by how the path was spelled, and
 * everything not marked, unmatched paths included, needs a credential: deny by default.
 */
export const Public = (): MethodDecorator => RouteConfig({ public: true });

/** Whether the route that matched the request was marked {@link Public}. */
export function isPublicRoute(request: FastifyRequest): boolean {
  return request.routeOptions.config?.public === true;
}
