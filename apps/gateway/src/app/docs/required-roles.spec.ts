import 'reflect-metadata';
import type { NatsConnection } from '@nats-io/transport-node';
import { describe, expect, it } from '@jest/globals';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { RequestMethod, type Type } from '@nestjs/common';
import { ModulesContainer, NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { EVERY_ROLE, SUBJECT_ROLES, SUBJECTS, type Subject } from '@service/contracts';
import { createLogger, loadConfig } from '@service/service-runtime';
import type { Redis } from 'ioredis';
import { gatewayConfigSpec } from '../../config.js';
import { AppModule } from '../app.module.js';
import { buildOpenApiDocument } from './openapi.js';
import { ROUTE_SUBJECT } from './required-roles.js';

/** The document is only generated, never served: any pepper satisfies the configuration. */
const DOCS_PEPPER = '00'.repeat(32);

interface Route {
  /** `POST /v2/wallets/{id}/allocate`, as the OpenAPI document names it. */
  readonly name: string;
  /** The subjects the handler asks, read from its source (`SUBJECTS.<service>.<name>`). */
  readonly asks: Subject[];
  /** Whether it has `@RequiredRoles`, and the subject that names. */
  readonly decorated: boolean;
  readonly named: Subject | undefined;
}

const SUBJECT_CONSTANTS = SUBJECTS as unknown as Record<string, Record<string, Subject>>;

function routesOf(controller: Type): Route[] {
  const base = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
  return Object.getOwnPropertyNames(controller.prototype).flatMap((key) => {
    const handler = (controller.prototype as Record<string, unknown>)[key];
    if (key === 'constructor' || typeof handler !== 'function' || !Reflect.hasMetadata(PATH_METADATA, handler)) return [];
    const path =
      `/${[base, String(Reflect.getMetadata(PATH_METADATA, handler))].filter((part) => part !== '' && part !== '/').join('/')}`.replace(
        /:(\w+)/g,
        '{$1}',
      );
    const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
    const asks = [...handler.toString().matchAll(/SUBJECTS\.(\w+)\.(\w+)/g)].map(([, service, name]) => SUBJECT_CONSTANTS[service][name]);
    return [
      {
        name: `${method} ${path}`,
        asks: [...new Set(asks)],
        decorated: Reflect.hasMetadata(ROUTE_SUBJECT, handler),
        named: Reflect.getMetadata(ROUTE_SUBJECT, handler) as Subject | undefined,
      },
    ];
  });
}

async function gateway() {
  const nats = { subscribe: () => ({}), isClosed: () => true } as unknown as NatsConnection;
  const config = loadConfig(gatewayConfigSpec, { AUTH_ISSUER: 'openapi', AUTH_AUDIENCE: 'openapi', IDENTITY_KEY_PEPPER: DOCS_PEPPER });
  const app = await NestFactory.create(
    AppModule.forRoot({ config, logger: createLogger('gateway', 'silent'), nats, redis: {} as Redis }),
    new FastifyAdapter(),
    {
      logger: false,
    },
  );
  const controllers = [...app.get(ModulesContainer).values()].flatMap((module) =>
    [...module.controllers.values()].map((wrapper) => wrapper.metatype as Type),
  );
  return { document: buildOpenApiDocument(app), routes: controllers.flatMap(routesOf) };
}

describe('roles: the contract declares them, the gateway documents them', () => {
  it('documents on every route the roles its subject declares, and on every route whose subject refuses a role', async () => {
    const { document, routes } = await gateway();
    expect(routes.length).toBeGreaterThan(50);
    const documented = new Map<string, unknown>();
    for (const [path, item] of Object.entries(document.paths)) {
      for (const method of ['get', 'put', 'post', 'delete', 'patch'] as const) {
        const operation = item[method] as Record<string, unknown> | undefined;
        if (operation && 'x-required-roles' in operation) documented.set(`${method.toUpperCase()} ${path}`, operation['x-required-roles']);
      }
    }
    const problems: string[] = [];
    for (const route of routes) {
      // A route may first read with a subject every role may ask (a rule's wallet, checked with
      // wallet-service): the roles are those of the one subject that refuses some.
      const restricted = route.asks.filter((asked) => SUBJECT_ROLES[asked].refusal !== undefined);
      if (restricted.length > 1 || (restricted.length === 0 && route.asks.length > 1))
        problems.push(`${route.name} asks several subjects: ${route.asks.join(', ')}`);
      const subject = restricted[0] ?? route.asks[0];
      const rule = subject === undefined ? EVERY_ROLE : SUBJECT_ROLES[subject];
      if (rule.refusal !== undefined && !route.decorated)
        problems.push(`${route.name} asks ${subject}, open to ${rule.roles.join(', ')} only, without @RequiredRoles`);
      if (route.decorated && route.named !== subject)
        problems.push(`${route.name} asks ${subject} but @RequiredRoles names ${route.named}`);
      if (route.decorated && !documented.has(route.name)) problems.push(`${route.name} is not in the document with x-required-roles`);
      if (documented.has(route.name))
        expect({ route: route.name, roles: documented.get(route.name) }).toEqual({ route: route.name, roles: [...rule.roles] });
    }
    expect(problems).toEqual([]);
    // Every documented operation is a route seen above (none escapes the check by its path).
    expect([...documented.keys()].filter((name) => !routes.some((route) => route.name === name))).toEqual([]);
  });

  it('routes every subject that refuses a role', async () => {
    const { routes } = await gateway();
    const asked = new Set(routes.flatMap((route) => route.asks));
    const restricted = (Object.keys(SUBJECT_ROLES) as Subject[]).filter((subject) => SUBJECT_ROLES[subject].refusal !== undefined);
    expect(restricted.filter((subject) => !asked.has(subject))).toEqual([]);
  });
});
