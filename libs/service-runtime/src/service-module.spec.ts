import { describe, expect, it } from '@jest/globals';
import type { Provider } from '@nestjs/common';
import { pino } from 'pino';
import type { ServiceConfig } from './config.js';
import { EVENT_DB, RELAY_DB } from './injection.js';
import { defineServiceModule } from './service-module.js';

class AppModule {}
class PrismaService {}
class PreparedSql {}

const config = {} as ServiceConfig;
const logger = pino({ level: 'silent' });

function existingOf(providers: Provider[] | undefined, token: symbol): unknown {
  const provider = providers?.find((each) => typeof each === 'object' && 'provide' in each && each.provide === token);
  return provider && 'useExisting' in provider ? provider.useExisting : undefined;
}

describe('defineServiceModule', () => {
  it("runs the outbox relay on the app's relayDb when it names one, health checks still on Prisma", () => {
    const module = defineServiceModule(AppModule, {
      name: 'wallet',
      config,
      logger,
      prisma: PrismaService,
      relayDb: PreparedSql,
      providers: [PreparedSql],
    });
    expect(existingOf(module.providers, RELAY_DB)).toBe(PreparedSql);
    expect(existingOf(module.providers, EVENT_DB)).toBe(PrismaService);
  });

  it('runs the outbox relay on the Prisma client by default', () => {
    const module = defineServiceModule(AppModule, { name: 'gvault', config, logger, prisma: PrismaService });
    expect(existingOf(module.providers, RELAY_DB)).toBe(PrismaService);
  });
});
