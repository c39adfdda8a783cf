// Every NATS subject of the contract has a handler in its service, a caller, and a line in its
// service's README; every event type is documented where its consumers are.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { ALL_SUBJECTS, DOMAIN_EVENT_TYPES, SERVICES, SUBJECTS, type ServiceName, type Subject, serviceOf } from '@service/contracts';
import { readWorkspaceFile, workspaceRoot } from './support.js';

/** The production sources below a folder: no tests, no generated code. */
function sources(relative: string): string {
  const texts: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!['generated', 'dist', 'node_modules'].includes(entry.name)) walk(full);
      } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')) {
        texts.push(readFileSync(full, 'utf8'));
      }
    }
  };
  walk(path.join(workspaceRoot, relative));
  return texts.join('\n');
}

/** `SUBJECTS.<service>.<key>`, the way code names a subject. */
const constantOf = new Map<Subject, string>(
  SERVICES.flatMap((service) =>
    Object.entries(SUBJECTS[service]).map(([key, subject]) => [subject as Subject, `SUBJECTS.${service}.${key}`] as const),
  ),
);

const healthSubjects = new Set<Subject>(SERVICES.map((service) => SUBJECTS[service].health));

/** Subjects the gateway does not route, and who sends them instead. */
const OTHER_CALLERS: Partial<Record<Subject, { readonly caller: string; readonly reason: string }>> = {
  [SUBJECTS.microvault.organizationsEnable]: { caller: 'tools/admin/src', reason: 'operator subject, sent by `npm run admin`' },
  [SUBJECTS.microvault.vaultsCreate]: { caller: 'tools/admin/src', reason: 'operator subject, sent by `npm run admin`' },
  [SUBJECTS.wallet.sandboxFailNextPayout]: { caller: 'tools/admin/src', reason: 'sandbox operator subject, sent by `npm run admin`' },
  [SUBJECTS.wallet.sandboxPinClock]: { caller: 'tools/admin/src', reason: 'sandbox operator subject, sent by `npm run admin`' },
};

const serviceSources = new Map<ServiceName, string>(SERVICES.map((service) => [service, sources(`apps/${service}-service/src`)]));
const gatewaySources = sources('apps/gateway/src');

describe('the contract between the gateway and the services', () => {
  it('lists every subject once, under the service that answers it', () => {
    expect(new Set(ALL_SUBJECTS).size).toBe(ALL_SUBJECTS.length);
    for (const subject of ALL_SUBJECTS) expect(subject.startsWith(`${serviceOf(subject)}.`)).toBe(true);
  });

  it.each([...ALL_SUBJECTS])('%s has a typed handler in its service', (subject) => {
    if (healthSubjects.has(subject)) {
      // One handler for every service, declared by the runtime every service boots with.
      expect(sources('libs/service-runtime/src')).toContain('@Handles(healthSubjectOf(service))');
      return;
    }
    expect(serviceSources.get(serviceOf(subject))).toContain(`@Handles(${constantOf.get(subject)})`);
    for (const [service, text] of serviceSources) {
      if (service !== serviceOf(subject)) expect(text).not.toContain(`@Handles(${constantOf.get(subject)})`);
    }
  });

  it.each([...ALL_SUBJECTS])('%s has a caller', (subject) => {
    if (healthSubjects.has(subject)) {
      // /readyz asks every service's health subject.
      expect(sources('apps/gateway/src/app/health')).toContain('healthSubjectOf(service)');
      return;
    }
    const other = OTHER_CALLERS[subject];
    expect(other ? sources(other.caller) : gatewaySources).toContain(constantOf.get(subject));
  });

  it.each([...ALL_SUBJECTS])("%s is in its service's README", (subject) => {
    expect(readWorkspaceFile(`apps/${serviceOf(subject)}-service/README.md`)).toContain(`\`${subject}\``);
  });
});

describe('domain events', () => {
  const consumers = ['apps/webhook-service/README.md', 'docs/integrators/webhooks.md'];

  it.each(consumers)('every event type is documented in %s', (file) => {
    const text = readWorkspaceFile(file);
    for (const type of DOMAIN_EVENT_TYPES) expect(text).toContain(`\`${type}\``);
  });
});
