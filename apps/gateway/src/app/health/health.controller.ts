import { randomUUID } from 'node:crypto';
import { Controller, Get, Inject, Query, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { NatsConnection } from '@nats-io/transport-node';
import { type RequestContext, SERVICES, healthSubjectOf } from '@service/contracts';
import { METRICS_CONTENT_TYPE, metricsText } from '@service/metrics';
import type { SubjectClient } from '@service/nats';
import type { FastifyReply } from 'fastify';
import type { Redis } from 'ioredis';
import { SERVICES_CLIENT } from '../services.js';
import { NATS, REDIS } from '../injection.js';
import { Public } from '../http/public-route.js';

const CHECK_TIMEOUT_MS = 1_000;

/** Probes for the orchestrator, outside /v2 and without authentication. */
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
   * down answers 503 on its own routes and must not take every gateway pod out of the Service,
   * so its health subject is asked only with `?full=1` (for humans and debugging).
   */
  @Get('readyz')
  @Public()
  async readyz(@Query('full') full: string | undefined, @Res() reply: FastifyReply): Promise<void> {
    const checks: Record<string, Promise<unknown>> = {
      nats: this.nats.isClosed() ? Promise.reject(new Error('closed')) : this.nats.flush(),
      redis: withTimeout(this.redis.ping()),
    };
    if (full === '1' || full === 'true') {
      for (const service of SERVICES) {
        checks[service] = this.requester.request(healthSubjectOf(service), { ctx: probeContext() }, { timeoutMs: CHECK_TIMEOUT_MS });
      }
    }
    const names = Object.keys(checks);
    const results = await Promise.allSettled(names.map((name) => withTimeout(checks[name] as Promise<unknown>)));
    const status: Record<string, 'ok' | 'unavailable'> = {};
    names.forEach((name, index) => (status[name] = results[index]?.status === 'fulfilled' ? 'ok' : 'unavailable'));
    const ready = Object.values(status).every((value) => value === 'ok');
    void reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'unavailable', checks: status });
  }

  /** Prometheus metrics of this process, for the scraper (outside /v2, no authentication). */
  @Get('metrics')
  @Public()
  async metrics(@Res() reply: FastifyReply): Promise<void> {
    void reply.header('content-type', METRICS_CONTENT_TYPE).send(await metricsText());
  }
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
