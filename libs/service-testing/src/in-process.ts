import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { DynamicModule } from '@nestjs/common';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { healthSubjectOf, type ServiceName } from '@service/contracts';
import { NatsRequester } from '@service/nats';
import { type ConfigSpec, type RunningService, runService, type ServiceConfig } from '@service/service-runtime';
import type { Logger } from 'pino';
import { isolatedEventStream, migratedSchema, newRunId, serviceTestEnv, startIsolatedNats } from '@service/testing';

export interface InProcessService {
  readonly running: RunningService;
  readonly requester: NatsRequester;
  readonly env: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * Boots a service inside the test process on its own migrated schema and event stream, and gives
 * a NATS requester that speaks to it the way the gateway does.
 */
export async function startServiceInProcess<C extends ServiceConfig>(options: {
  name: ServiceName;
  module: (config: C, logger: Logger) => DynamicModule;
  /** The service's own configuration variables, as its main.ts passes them to runService. */
  spec?: ConfigSpec;
  env?: Record<string, string>;
}): Promise<InProcessService> {
  const runId = newRunId();
  const schema = await migratedSchema(`${options.name}-service`, runId);
  const nats = await startIsolatedNats();
  const stream = isolatedEventStream(runId, nats.url);
  const env = { ...serviceTestEnv(schema.schema, stream), NATS_URL: nats.url, LOG_LEVEL: 'warn', ...options.env };
  const running = await runService({
    name: options.name,
    module: options.module as (config: ServiceConfig, logger: Logger) => DynamicModule,
    spec: options.spec,
    env,
  });
  const connection: NatsConnection = await connect({ servers: nats.url });
  return {
    running,
    env,
    requester: new NatsRequester(connection, 2_000),
    async stop() {
      await connection.close();
      await running.close();
      await schema.drop();
      await nats.stop();
    },
  };
}

/** The behaviour every service skeleton shares: it boots, migrates and answers its health subject. */
export function describeServiceSkeleton<C extends ServiceConfig>(
  name: ServiceName,
  module: (config: C, logger: Logger) => DynamicModule,
  spec?: ConfigSpec,
): void {
  describe(`${name} service skeleton`, () => {
    let service: InProcessService;

    beforeAll(async () => {
      service = await startServiceInProcess({ name, module, spec });
    });

    afterAll(async () => {
      await service?.stop();
    });

    it('answers its health subject in its queue group once its database and NATS answer', async () => {
      await expect(service.requester.request(healthSubjectOf(name), {})).resolves.toEqual({ service: name, status: 'ok' });
    });

    it('turns an unknown subject of its own into a retryable 503 for the gateway', async () => {
      await expect(service.requester.request(`${name}.nothing.here`, {}, { timeoutMs: 300 })).rejects.toMatchObject({
        code: 'service_temporarily_unavailable',
      });
    });
  });
}
