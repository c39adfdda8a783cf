import 'reflect-metadata';
import type { NatsConnection } from '@nats-io/transport-node';
import { describe, expect, it } from '@jest/globals';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { createLogger, loadConfig } from '@service/service-runtime';
import type { Redis } from 'ioredis';
import { gatewayConfigSpec } from '../../config.js';
import { AppModule } from '../app.module.js';
import { buildOpenApiDocument } from './openapi.js';

/** The document is only generated, never served: any pepper satisfies the configuration. */
const DOCS_PEPPER = '00'.repeat(32);

describe('the OpenAPI document', () => {
  // The SDK's parameter types are keyed by operationId: Nest's default (`ClassName_method`) would
  // tie them to class names, so every route declares its own with `@Operation`.
  it('gives every operation an explicit camelCase operationId, unique across the document', async () => {
    const nats = { subscribe: () => ({}), isClosed: () => true } as unknown as NatsConnection;
    const config = loadConfig(gatewayConfigSpec, { AUTH_ISSUER: 'openapi', AUTH_AUDIENCE: 'openapi', IDENTITY_KEY_PEPPER: DOCS_PEPPER });
    const app = await NestFactory.create(
      AppModule.forRoot({ config, logger: createLogger('gateway', 'silent'), nats, redis: {} as Redis }),
      new FastifyAdapter(),
      {
        logger: false,
      },
    );
    const document = buildOpenApiDocument(app);
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      (['get', 'put', 'post', 'delete', 'patch'] as const).flatMap((method) =>
        item[method] ? [{ route: `${method.toUpperCase()} ${path}`, id: item[method]?.operationId }] : [],
      ),
    );
    expect(operations.length).toBeGreaterThan(50);
    expect(operations.filter(({ id }) => !/^[a-z][a-zA-Z0-9]*$/.test(id ?? '')).map(({ route, id }) => `${route}: ${id}`)).toEqual([]);
    const ids = operations.map(({ id }) => id);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
  });
});
