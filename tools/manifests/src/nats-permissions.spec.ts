// The shipped NATS configuration (k8s/base/nats/nats-server.conf) against the contract: the gateway
// may send every subject it routes and none of the operator subjects, the operator CLI exactly
// those, each service serves its own subjects and publishes its own events, identity-service alone
// publishes revocations. apps/gateway/test/nats-permissions.e2e.spec.ts shows the refusals on a
// running server; this keeps the file in step with libs/contracts when a subject is added.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { ALL_SUBJECTS, BROADCASTS, OPERATOR_SUBJECTS as OPERATOR_SUBJECT_LIST, SERVICES, SUBJECTS, type Subject } from '@service/contracts';
import { readWorkspaceFile, workspaceRoot } from './support.js';

const CONFIG = readWorkspaceFile('k8s/base/nats/nats-server.conf');

/** Subjects the operator CLI (tools/admin) sends and the gateway never does (libs/contracts). */
const OPERATOR_SUBJECTS: readonly Subject[] = OPERATOR_SUBJECT_LIST;

/** The gateway's production sources (no specs), where a subject it routes is named `SUBJECTS.<service>.<key>`. */
function gatewaySources(dir = path.join(workspaceRoot, 'apps/gateway/src')): string {
  return readdirSync(dir, { withFileTypes: true })
    .map((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === 'generated' ? '' : gatewaySources(full);
      return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? readFileSync(full, 'utf8') : '';
    })
    .join('\n');
}
const constantOf = new Map<Subject, string>(
  SERVICES.flatMap((service) =>
    Object.entries(SUBJECTS[service]).map(([key, subject]) => [subject as Subject, `SUBJECTS.${service}.${key}`]),
  ),
);

interface Permissions {
  readonly publishAllow: string[];
  readonly publishDeny: string[];
  readonly subscribeAllow: string[];
}

const quoted = (text: string) => [...text.matchAll(/"([^"]+)"/g)].map((match) => match[1] ?? '');
const listAfter = (section: string, key: string) => {
  const start = section.indexOf(`${key} = [`);
  return start < 0 ? [] : quoted(section.slice(start, section.indexOf(']', start) + 1));
};

/** The permissions block `<NAME> = { ... }` of the authorization section. */
function permissionsOf(name: string): Permissions {
  const block = new RegExp(`^  ${name} = \\{\\n([\\s\\S]*?)\\n  \\}`, 'm').exec(CONFIG)?.[1];
  if (!block) throw new Error(`no ${name} block in nats-server.conf`);
  const publish = block.slice(block.indexOf('publish = {'), block.indexOf('subscribe = {'));
  const subscribe = block.slice(block.indexOf('subscribe = {'));
  return {
    publishAllow: listAfter(publish, 'allow'),
    publishDeny: listAfter(publish, 'deny'),
    subscribeAllow: listAfter(subscribe, 'allow'),
  };
}

/** NATS subject matching: `*` one token, `>` one or more at the end. */
function matches(pattern: string, subject: string): boolean {
  const wanted = pattern.split('.');
  const tokens = subject.split('.');
  for (const [index, token] of wanted.entries()) {
    if (token === '>') return tokens.length > index;
    if (index >= tokens.length || (token !== '*' && token !== tokens[index])) return false;
  }
  return wanted.length === tokens.length;
}

const mayPublish = (permissions: Permissions, subject: string) =>
  permissions.publishAllow.some((pattern) => matches(pattern, subject)) &&
  !permissions.publishDeny.some((pattern) => matches(pattern, subject));
const maySubscribe = (permissions: Permissions, subject: string) => permissions.subscribeAllow.some((pattern) => matches(pattern, subject));

const gateway = permissionsOf('GATEWAY');
const admin = permissionsOf('ADMIN');
const services = SERVICES.map((service) => [service, permissionsOf(service.toUpperCase())] as const);

describe('the shipped NATS configuration', () => {
  it('declares one user per app, the operator CLI and ops, each with its password variable and permissions', () => {
    for (const user of ['gateway', ...SERVICES, 'admin', 'ops']) {
      expect(CONFIG).toContain(`{ user: ${user}, password: $NATS_${user.toUpperCase()}_PASSWORD, permissions: $${user.toUpperCase()} }`);
    }
    expect(CONFIG).not.toMatch(/no_auth_user/);
  });

  it.each(ALL_SUBJECTS.filter((subject) => !OPERATOR_SUBJECTS.includes(subject)))('lets the gateway send %s', (subject) => {
    expect(mayPublish(gateway, subject)).toBe(true);
  });

  it.each([...OPERATOR_SUBJECTS])('keeps %s from the gateway and lets the operator CLI send it', (subject) => {
    expect(mayPublish(gateway, subject)).toBe(false);
    expect(mayPublish(admin, subject)).toBe(true);
  });

  it('lets the gateway send only what it routes: a subject it may send is named in its sources (or a health subject, asked by /readyz)', () => {
    // A new operator subject under a prefix the gateway may use (`wallet.>`) fails here until it is
    // in OPERATOR_SUBJECTS and the gateway's deny list.
    const sources = gatewaySources();
    const health = new Set<Subject>(SERVICES.map((service) => SUBJECTS[service].health));
    const unrouted = ALL_SUBJECTS.filter(
      (subject) => mayPublish(gateway, subject) && !health.has(subject) && !sources.includes(constantOf.get(subject) ?? subject),
    );
    expect(unrouted).toEqual([]);
    expect(OPERATOR_SUBJECTS.filter((subject) => sources.includes(constantOf.get(subject) ?? subject))).toEqual([]);
  });

  it('lets the operator CLI send nothing the gateway routes but key creation', () => {
    const routed = ALL_SUBJECTS.filter((subject) => !OPERATOR_SUBJECTS.includes(subject) && subject !== SUBJECTS.identity.apiKeysCreate);
    expect(routed.filter((subject) => mayPublish(admin, subject))).toEqual([]);
  });

  it.each(services)("lets %s-service serve its own subjects and publish its own events, nothing of another's", (service, permissions) => {
    for (const subject of ALL_SUBJECTS) {
      expect([subject, maySubscribe(permissions, subject)]).toEqual([subject, subject.startsWith(`${service}.`)]);
      expect([subject, mayPublish(permissions, subject)]).toEqual([subject, false]);
    }
    for (const source of SERVICES) {
      expect([source, mayPublish(permissions, `events.${source}.portfolio_wallet.deposit.status_changed`)]).toEqual([
        source,
        source === service,
      ]);
    }
    expect(CONFIG).toMatch(new RegExp(`  ${service.toUpperCase()} = \\{[\\s\\S]*?allow_responses = true`));
  });

  it('lets identity-service alone publish revocations, and the gateway alone hear them', () => {
    const publishers = [['gateway', gateway], ['admin', admin], ...services].filter(([, permissions]) =>
      mayPublish(permissions as Permissions, BROADCASTS.apiKeyRevoked),
    );
    expect(publishers.map(([name]) => name)).toEqual(['identity']);
    expect(maySubscribe(gateway, BROADCASTS.apiKeyRevoked)).toBe(true);
    expect(mayPublish(gateway, BROADCASTS.apiKeyUsed)).toBe(true);
  });

  it('lets wallet-service run its durables of the risk events (`wallet-risk`, `wallet-market-data`), and no other durable', () => {
    const wallet = permissionsOf('WALLET');
    for (const durable of ['wallet-risk', 'wallet-market-data']) {
      for (const api of ['CONSUMER.INFO', 'CONSUMER.CREATE', 'CONSUMER.DURABLE.CREATE', 'CONSUMER.MSG.NEXT'])
        expect([api, durable, mayPublish(wallet, `$JS.API.${api}.DOMAIN_EVENTS.${durable}`)]).toEqual([api, durable, true]);
      // Acks are replies to deliveries (allow_responses), never a line of their own: see the next test.
      expect(mayPublish(wallet, `$JS.ACK.DOMAIN_EVENTS.${durable}.1.2.3.4.5.6.7`)).toBe(false);
      expect(mayPublish(wallet, `$JS.API.CONSUMER.DELETE.DOMAIN_EVENTS.${durable}`)).toBe(false);
    }
    expect(mayPublish(wallet, '$JS.API.CONSUMER.CREATE.DOMAIN_EVENTS.wallet-risk.events.risk.portfolio_wallet.>')).toBe(true);
    expect(mayPublish(wallet, '$JS.API.CONSUMER.CREATE.DOMAIN_EVENTS.wallet-market-data.events.risk.risk.metrics.observed')).toBe(true);
    expect(mayPublish(wallet, 'events.risk.risk.metrics.observed')).toBe(false);
    expect(mayPublish(wallet, '$JS.API.CONSUMER.MSG.NEXT.DOMAIN_EVENTS.activity-projection')).toBe(false);
    expect(mayPublish(wallet, '$JS.API.CONSUMER.DELETE.DOMAIN_EVENTS.wallet-risk')).toBe(false);
    expect(mayPublish(wallet, 'events.risk.portfolio_wallet.risk.action.status_changed')).toBe(false);
  });

  it.each(services)(
    'lets %s-service ack only the deliveries it received (allow_responses), with no $JS.ACK line',
    (_service, permissions) => {
      // nats-server 2.9 walks a client's whole map of reply subjects on every message once it holds
      // 4,096; an ack allowed by a line of its own never leaves that map (two minutes), so a line per
      // durable made the server's CPU per allocation grow fourfold under load (outbox lag in seconds).
      expect(mayPublish(permissions, '$JS.ACK.DOMAIN_EVENTS.webhook-deliveries.1.2.3.4.5.6.7')).toBe(false);
      expect(CONFIG).not.toMatch(/"\$JS\.ACK/);
    },
  );

  it('lets risk-service publish its own events and run its durable of the rebalance events (`risk-executions`), and no other', () => {
    const risk = permissionsOf('RISK');
    expect(mayPublish(risk, 'events.risk.portfolio_wallet.risk.alert.triggered')).toBe(true);
    expect(mayPublish(risk, 'events.wallet.portfolio_wallet.rebalance.status_changed')).toBe(false);
    for (const api of ['CONSUMER.INFO', 'CONSUMER.CREATE', 'CONSUMER.DURABLE.CREATE', 'CONSUMER.MSG.NEXT'])
      expect([api, mayPublish(risk, `$JS.API.${api}.DOMAIN_EVENTS.risk-executions`)]).toEqual([api, true]);
    expect(mayPublish(risk, '$JS.ACK.DOMAIN_EVENTS.risk-executions.1.2.3.4.5.6.7')).toBe(false);
    expect(mayPublish(risk, '$JS.API.CONSUMER.MSG.NEXT.DOMAIN_EVENTS.wallet-risk')).toBe(false);
    expect(mayPublish(risk, '$JS.API.CONSUMER.DELETE.DOMAIN_EVENTS.risk-executions')).toBe(false);
  });

  it.each(services)(
    'lets %s-service create the event stream on a new server but never change, delete or purge it',
    (_service, permissions) => {
      expect(mayPublish(permissions, '$JS.API.STREAM.INFO.DOMAIN_EVENTS')).toBe(true);
      expect(mayPublish(permissions, '$JS.API.STREAM.CREATE.DOMAIN_EVENTS')).toBe(true);
      for (const api of ['UPDATE', 'DELETE', 'PURGE', 'MSG.DELETE', 'SNAPSHOT', 'RESTORE'])
        expect([api, mayPublish(permissions, `$JS.API.STREAM.${api}.DOMAIN_EVENTS`)]).toEqual([api, false]);
      expect(permissions.publishAllow.filter((pattern) => pattern.startsWith('$JS.API.STREAM.'))).toEqual([
        '$JS.API.STREAM.INFO.DOMAIN_EVENTS',
        '$JS.API.STREAM.CREATE.DOMAIN_EVENTS',
      ]);
    },
  );

  it('lets ops alone change the event stream (`npm run -s admin -- streams ensure`), and neither the gateway nor the operator CLI user', () => {
    expect(mayPublish(permissionsOf('OPS'), '$JS.API.STREAM.UPDATE.DOMAIN_EVENTS')).toBe(true);
    for (const permissions of [gateway, admin]) expect(mayPublish(permissions, '$JS.API.STREAM.UPDATE.DOMAIN_EVENTS')).toBe(false);
  });

  it("gives every user its own inbox and no one another's", () => {
    const users = [['gateway', gateway], ['admin', admin], ...services] as const;
    for (const [name, permissions] of users) {
      expect(maySubscribe(permissions, `_INBOX_${name}.abc.1`)).toBe(true);
      expect(maySubscribe(permissions, '_INBOX.abc.1')).toBe(false);
      for (const [other] of users) if (other !== name) expect(maySubscribe(permissions, `_INBOX_${other}.abc.1`)).toBe(false);
    }
  });
});
