import { randomUUID } from 'node:crypto';
import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { NatsConnection } from '@nats-io/transport-node';
import { type RequestContext, SERVICES, healthSubjectOf } from '@service/contracts';
import type { SubjectClient } from '@service/nats';
import type { ProbeAnswer } from '@service/service-runtime';
import type { FastifyReply } from 'fastify';
import type { Redis } from 'ioredis';
import { SERVICES_CLIENT } from '../services.js';
import { NATS, REDIS } from '../injection.js';
import { Public } from '../http/public-route.js';

const CHECK_TIMEOUT_MS = 1_000;

/**
 * Probes on the public port, outside /v2 and without authentication: `/healthz` and `/readyz`.
 * `/metrics` and the full readiness check are on `HEALTH_PORT` only (`bootstrap.ts`).
 */
@ApiExcludeController()
@Controller()
export class HealthController {
  constructor(
    @Inject(NATS) private readonly nats: NatsConnection,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(SERVICES_CLIENT) private readonly requester: SubjectClient,
  ) {}

  /** The process is up. */
  @Get('healthz')
  @Public()
  healthz(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /**
   * Ready to serve: the gateway's own dependencies, NATS and Redis, answer. A service that is
   * down answers 503 on its own routes and must not take every gateway pod out of the Service.
   * The full check (every service's health subject) is served only on `HEALTH_PORT`.
   */
  @Get('readyz')
  @Public()
  async readyz(@Res() reply: FastifyReply): Promise<void> {
    const answer = await this.check(false);
    void reply.status(answer.status).send(answer.body);
  }

  /**
   * The readiness answer: NATS and Redis, and with `full` (`/readyz?full=1` on `HEALTH_PORT`, for
   * humans and debugging) every service's health subject, naming the service that is down.
   */
  async check(full: boolean): Promise<ProbeAnswer> {
    const checks: Record<string, Promise<unknown>> = {
      nats: this.nats.isClosed() ? Promise.reject(new Error('closed')) : this.nats.flush(),
      redis: withTimeout(this.redis.ping()),
    };
    if (full) {
      for (const service of SERVICES) {
        checks[service] = this.requester.request(healthSubjectOf(service), { ctx: probeContext() }, { timeoutMs: CHECK_TIMEOUT_MS });
      }
    }
    const names = Object.keys(checks);
    const results = await Promise.allSettled(names.map((name) => withTimeout(checks[name] as Promise<unknown>)));
    const status: Record<string, 'ok' | 'unavailable'> = {};
    names.forEach((name, index) => (status[name] = results[index]?.status === 'fulfilled' ? 'ok' : 'unavailable'));
    const ready = Object.values(status).every((value) => value === 'ok');
    return { status: ready ? 200 : 503, body: { status: ready ? 'ready' : 'unavailable', checks: status } };
  }
}

/** `full=1` or `full=true` of the health port's `/readyz`. */
export function wantsFullCheck(query: URLSearchParams): boolean {
  const full = query.get('full');
  return full === '1' || full === 'true';
}

/** Who asks a service's health subject: the gateway itself, with a request id for the logs. */
function probeContext(): RequestContext {
  return { orgId: 'system', principalId: 'gateway-readyz', role: 'member', requestId: randomUUID() };
}

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS).unref()),
  ]);
}
