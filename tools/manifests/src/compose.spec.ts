import { describe, it, expect } from '@jest/globals';
import type { IDeployment } from 'kubernetes-models/apps/v1';
import { parse } from 'yaml';
import {
  APPS,
  appContainer,
  containerEnv,
  findOne,
  GATEWAY,
  GATEWAY_PORT,
  ONE_OF_ENV,
  OVERLAYS,
  type Overlay,
  plainValue,
  REQUIRED_ENV,
  readWorkspaceFile,
  render,
  SCHEMA,
  SERVICES,
} from './support.js';

interface ComposeService {
  image?: string;
  build?: { context?: string; dockerfile?: string; args?: Record<string, string> };
  command?: string[] | string;
  environment?: Record<string, string | number | boolean | null>;
  healthcheck?: { test?: string[] | string };
  depends_on?: Record<string, { condition?: string }> | string[];
  ports?: string[];
}

interface Compose {
  services: Record<string, ComposeService>;
}

const compose = parse(readWorkspaceFile('docker/compose.yaml'), { merge: true }) as Compose;
const services = compose.services;

/** Compose interpolation for the `${VAR:-default}` forms used here, with an empty shell. */
function interpolate(value: string | number | boolean | null | undefined): string | undefined {
  if (value === null || value === undefined) return undefined;
  return String(value).replace(/\$\{(\w+)(?::?-([^}]*))?\}/g, (_match, _name: string, fallback?: string) => fallback ?? '');
}

function dependsOn(name: string): Record<string, string | undefined> {
  const deps = services[name].depends_on ?? {};
  if (Array.isArray(deps)) return Object.fromEntries(deps.map((d) => [d, undefined]));
  return Object.fromEntries(Object.entries(deps).map(([dep, spec]) => [dep, spec.condition]));
}

describe('docker/compose.yaml', () => {
  it('runs PostgreSQL 15, NATS with JetStream and Redis 7 with healthchecks', () => {
    expect(services['postgres']?.image).toMatch(/^postgres:15\b/);
    expect(services['redis']?.image).toMatch(/^redis:7\b/);
    expect(services['nats']?.image).toMatch(/^nats:/);
    const natsCommand = services['nats'].command;
    expect(Array.isArray(natsCommand) ? natsCommand : String(natsCommand).split(/\s+/)).toContain('-js');
    for (const name of ['postgres', 'nats', 'redis']) expect(services[name].healthcheck?.test).toBeDefined();
  });

  it('has a one-shot migrate service that runs the migration tool after Postgres is healthy', () => {
    const migrate = services['migrate'];
    expect(migrate).toBeDefined();
    const command = Array.isArray(migrate.command) ? migrate.command.join(' ') : migrate.command;
    expect(command).toMatch(/^node tools\/migrate\/dist\/cli\.js\b/);
    expect(dependsOn('migrate')).toMatchObject({ postgres: 'service_healthy' });
    expect(migrate.environment?.['DATABASE_URL']).toBeDefined();
  });

  it.each(APPS)('%s is built from docker/Dockerfile with APP=%s', (app) => {
    const service = services[app];
    expect(service).toBeDefined();
    expect(service.build).toMatchObject({ context: '..', dockerfile: 'docker/Dockerfile', args: { APP: app } });
    expect(service.healthcheck?.test).toBeDefined();
  });

  it.each(APPS)('%s gets every variable it validates at boot, with sandbox defaults', (app) => {
    const env = services[app].environment ?? {};
    expect(REQUIRED_ENV[app].filter((name) => !(name in env))).toEqual([]);
    for (const group of ONE_OF_ENV[app] ?? []) expect(group.filter((name) => name in env)).not.toEqual([]);
    expect(interpolate(env['SERVICE_ENV'])).toBe('sandbox');
    expect(interpolate(env['HEALTH_PORT'])).toBe('8080');
    if (app === GATEWAY) {
      expect(interpolate(env['PORT'])).toBe(String(GATEWAY_PORT));
      // Its health check reads the health port (metrics and the full readiness check are not public).
      expect(JSON.stringify(services[app].healthcheck?.test)).toContain('127.0.0.1:8080/readyz');
    } else {
      expect(interpolate(env['DATABASE_SCHEMA'])).toBe(SCHEMA[app]);
    }
  });

  it('publishes the gateway on 3000 and nothing else', () => {
    expect(services[GATEWAY].ports).toEqual([`${GATEWAY_PORT}:${GATEWAY_PORT}`]);
    const published = Object.entries(services).filter(([name, s]) => name !== GATEWAY && s.ports?.length);
    expect(published).toEqual([]);
  });

  it('gives the webhook service a 64-hex dev key and no private receiver host unless one is set', () => {
    const env = services['webhook-service'].environment ?? {};
    expect(interpolate(env['WEBHOOK_SECRET_ENCRYPTION_KEY'])).toMatch(/^[0-9a-f]{64}$/);
    expect(interpolate(env['WEBHOOK_PRIVATE_HOST_ALLOWLIST'])).toBe('');
  });

  it.each(Object.keys(OVERLAYS) as Overlay[])("sets webhook-service's tenant limits as the Kubernetes overlay %s does", (overlay) => {
    const env = services['webhook-service'].environment ?? {};
    const objects = render(overlay);
    const kube = containerEnv(objects, appContainer(findOne<IDeployment>(objects, 'Deployment', 'webhook-service')));
    for (const name of [
      'WEBHOOK_CONCURRENCY_PER_ORGANIZATION',
      'WEBHOOK_SLOW_RECEIVER_TIMEOUT_MS',
      'WEBHOOK_MAX_REGISTRATIONS_PER_ORGANIZATION',
    ]) {
      expect({ name, value: interpolate(env[name]) }).toEqual({ name, value: plainValue(kube.get(name)) ?? 'unset in Kubernetes' });
    }
  });

  it('starts services after healthy infrastructure and completed migrations, and the gateway after NATS and Redis', () => {
    for (const app of SERVICES) {
      expect(dependsOn(app)).toMatchObject({
        postgres: 'service_healthy',
        nats: 'service_healthy',
        migrate: 'service_completed_successfully',
      });
    }
    expect(dependsOn(GATEWAY)).toMatchObject({ nats: 'service_healthy', redis: 'service_healthy' });
  });

  it('only depends on defined services, waiting for health only where a healthcheck exists', () => {
    const conditions = ['service_started', 'service_healthy', 'service_completed_successfully'];
    for (const name of Object.keys(services)) {
      for (const [dep, condition] of Object.entries(dependsOn(name))) {
        expect({ name, dep, defined: dep in services }).toEqual({ name, dep, defined: true });
        if (condition !== undefined) expect(conditions).toContain(condition);
        if (condition === 'service_healthy') expect(services[dep].healthcheck?.test).toBeDefined();
      }
    }
  });
});
