import { describe, expect, it } from '@jest/globals';
import type { JsMsg } from '@nats-io/jetstream';
import { ALL_ORGANIZATIONS, type DomainEventType, EVENT_PUBLISHERS, eventSubject } from '@service/contracts';
import { metricsText } from '@service/metrics';
import { domainEventsOf, refusalOf } from './consumer.js';

const PREFIX = 'events';
const WITHDRAWAL = 'portfolio_wallet.withdrawal.status_changed';
const durable = 'consumer-spec';

/** A message on `subject` carrying `body` as JSON, whose termination is recorded. */
function messageOf(subject: string, body: object): JsMsg & { terminated: boolean } {
  const message = {
    subject,
    seq: 1,
    terminated: false,
    json: () => JSON.parse(JSON.stringify(body)),
    term() {
      message.terminated = true;
    },
  };
  return message as unknown as JsMsg & { terminated: boolean };
}

const eventOf = (type: string, orgId = 'org_a') => ({
  id: '0b0f8c8e-4c3f-4a57-9a55-7c1f2f4a9d1e',
  type,
  orgId,
  source: 'wallet',
  occurredAt: '2026-11-28T10:00:00.000Z',
  payload: { secret: 'never-logged' },
});

/** Runs a batch through {@link domainEventsOf}; returns what passed, the messages and the warnings logged. */
function consume(...messages: (JsMsg & { terminated: boolean })[]) {
  const warnings: object[] = [];
  const logger = { info: () => undefined, warn: (object: object) => void warnings.push(object), error: () => undefined };
  const passed = domainEventsOf(messages, logger, { subjectPrefix: PREFIX, durable });
  return { passed, warnings };
}

describe('events are bound to their publisher', () => {
  it('refuses a wallet event on another service’s subject, logging its subject and type but not its payload', async () => {
    const before = /domain_events_refused_total\{consumer="consumer-spec"\} (\d+)/.exec(await metricsText())?.[1] ?? '0';
    const forged = messageOf(`${PREFIX}.identity.${WITHDRAWAL}`, eventOf(WITHDRAWAL));
    const { passed, warnings } = consume(forged);
    expect(passed).toEqual([]);
    expect(forged.terminated).toBe(true);
    expect(warnings).toEqual([expect.objectContaining({ subject: `${PREFIX}.identity.${WITHDRAWAL}`, type: WITHDRAWAL })]);
    expect(JSON.stringify(warnings)).not.toContain('never-logged');
    expect(await metricsText()).toContain(`domain_events_refused_total{consumer="consumer-spec"} ${Number(before) + 1}`);
  });

  it('refuses a wallet event for all organizations, even on the wallet subject', () => {
    const forged = messageOf(eventSubject(PREFIX, 'wallet', WITHDRAWAL), eventOf(WITHDRAWAL, ALL_ORGANIZATIONS));
    const { passed, warnings } = consume(forged);
    expect(passed).toEqual([]);
    expect(forged.terminated).toBe(true);
    expect(warnings).toHaveLength(1);
  });

  it('refuses a type published under another subject of the right service, or an unknown type', () => {
    expect(refusalOf(`${PREFIX}.wallet.portfolio_wallet.deposit.status_changed`, eventOf(WITHDRAWAL), PREFIX)).toBeDefined();
    expect(refusalOf(`${PREFIX}.wallet.${WITHDRAWAL}`, eventOf(WITHDRAWAL), 'other')).toBeDefined();
    expect(refusalOf(`${PREFIX}.wallet.constructor`, eventOf('constructor'), PREFIX)).toBe('unknown event type');
    // Risk decisions that wallet-service acts on (exits) come from risk-service alone.
    const action = 'portfolio_wallet.risk.action.status_changed';
    expect(refusalOf(eventSubject(PREFIX, 'wallet', action), eventOf(action), PREFIX)).toBe('not published by risk');
  });

  it('passes every genuine event: each type on its publisher’s subject, for all organizations where the type allows', () => {
    const genuine = (Object.entries(EVENT_PUBLISHERS) as [DomainEventType, string][]).map(([type, publisher]) =>
      messageOf(eventSubject(PREFIX, publisher, type), eventOf(type)),
    );
    const shared = [
      messageOf(eventSubject(PREFIX, 'gvault', 'gvault.allowlist.updated'), eventOf('gvault.allowlist.updated', ALL_ORGANIZATIONS)),
      messageOf(eventSubject(PREFIX, 'risk', 'risk.metrics.observed'), eventOf('risk.metrics.observed', ALL_ORGANIZATIONS)),
    ];
    const { passed, warnings } = consume(...genuine, ...shared);
    expect(passed).toHaveLength(genuine.length + shared.length);
    expect(warnings).toEqual([]);
    expect([...genuine, ...shared].some((message) => message.terminated)).toBe(false);
  });

  it('names the publishers that relay each type: wallet, risk and gvault', () => {
    expect(EVENT_PUBLISHERS[WITHDRAWAL]).toBe('wallet');
    expect(EVENT_PUBLISHERS['portfolio_wallet.risk.unwind.completed']).toBe('risk');
    expect(EVENT_PUBLISHERS['risk.metrics.observed']).toBe('risk');
    expect(EVENT_PUBLISHERS['gvault.allowlist.updated']).toBe('gvault');
  });
});
