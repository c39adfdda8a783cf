/**
 * Prints the gateway's OpenAPI document as JSON with every object's keys sorted, without
 * connecting to anything: the routes and DTOs alone make the document. The SDK generates its
 * types from this output (`npx nx run sdk:generate`).
 */
import 'reflect-metadata';
import type { NatsConnection } from '@nats-io/transport-node';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { createLogger, loadConfig } from '@service/service-runtime';
import type { Redis } from 'ioredis';
import { AppModule } from './app/app.module.js';
import { buildOpenApiDocument } from './app/docs/openapi.js';
import { gatewayConfigSpec } from './config.js';

/** The document is only generated, never served: any pepper satisfies the configuration. */
const DOCS_PEPPER = '00'.repeat(32);

/** Keys sorted at every depth, so the same routes always print the same bytes. */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
  );
}

// Never used to connect: the document is read from metadata before the app is initialised.
const nats = { subscribe: () => ({}), isClosed: () => true } as unknown as NatsConnection;
const redis = {} as Redis;
const config = loadConfig(gatewayConfigSpec, { AUTH_ISSUER: 'openapi', AUTH_AUDIENCE: 'openapi', IDENTITY_KEY_PEPPER: DOCS_PEPPER });
const app = await NestFactory.create(
  AppModule.forRoot({ config, logger: createLogger('gateway', 'silent'), nats, redis }),
  new FastifyAdapter(),
  {
    logger: false,
  },
);
process.stdout.write(`${JSON.stringify(sortKeys(buildOpenApiDocument(app)), null, 2)}\n`);
