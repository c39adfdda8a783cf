import { describe, expect, it } from '@jest/globals';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import {
  CreateWebhookDto,
  DOMAIN_EVENT_TYPES,
  GTOKEN_EVENTS,
  INTERNAL_EVENTS,
  isInternalEvent,
  PageQueryDto,
  PORTFOLIO_WALLET_WEBHOOK_EVENTS,
  ROLES,
  SERVICES,
  SUBJECT_ROLES,
  SUBJECTS,
  WEBHOOK_ENDPOINT_EVENTS,
  WEBHOOK_FAMILIES,
  eventSubject,
  queueGroupOf,
} from './index.js';

describe('event catalogues', () => {
  it('lists the 11 webhook types and the 6 webhook-endpoint types of the interface', () => {
    expect(PORTFOLIO_WALLET_WEBHOOK_EVENTS).toHaveLength(11);
    expect(new Set(PORTFOLIO_WALLET_WEBHOOK_EVENTS).size).toBe(11);
    expect(WEBHOOK_ENDPOINT_EVENTS).toEqual([
      'portfolio_wallet.balance.updated',
      'portfolio_wallet.deposit.status_changed',
      'portfolio_wallet.withdrawal.status_changed',
      'portfolio_wallet.withdrawal.payout.status_changed',
      'portfolio_wallet.position.updated',
      'portfolio_wallet.strategy.status_changed',
    ]);
    expect(GTOKEN_EVENTS).toContain('gvault.allowlist.updated');
  });

  it('keeps internal events out of every webhook family, so no registration may subscribe to them', () => {
    for (const type of INTERNAL_EVENTS) {
      expect(isInternalEvent(type)).toBe(true);
      expect(DOMAIN_EVENT_TYPES).not.toContain(type);
      for (const events of Object.values(WEBHOOK_FAMILIES)) expect(events).not.toContain(type);
      expect(validateSync(plainToInstance(CreateWebhookDto, { url: 'https://example.com/hook', events: [type] }))).not.toEqual([]);
    }
    expect(isInternalEvent('portfolio_wallet.risk.alert.triggered')).toBe(false);
  });

  it('puts events on subjects by source and type', () => {
    expect(eventSubject('events', 'wallet', 'portfolio_wallet.deposit.status_changed')).toBe(
      'events.wallet.portfolio_wallet.deposit.status_changed',
    );
  });
});

describe('subjects', () => {
  it('names every subject <service>.<resource>.<verb> under its own service', () => {
    for (const service of SERVICES) {
      for (const subject of Object.values(SUBJECTS[service])) {
        expect(subject).toMatch(new RegExp(`^${service}\\.[a-z-]+\\.[a-z-]+$`));
      }
      expect(queueGroupOf(service)).toBe(`${service}-service`);
    }
  });
});

describe('role rules', () => {
  it('opens every subject to every role but these, each refused to a member with its own message', () => {
    const restricted = Object.fromEntries(
      Object.entries(SUBJECT_ROLES).flatMap(([subject, rule]) =>
        rule.refusal === undefined ? [] : [[subject, [rule.roles, rule.refusal]]],
      ),
    );
    const only = (refusal: string) => [['owner', 'admin'], `Only organization owners and admins may ${refusal}.`];
    expect(restricted).toEqual({
      'wallet.strategy.update': only('change a strategy'),
      'wallet.rebalances.allocate': only('allocate'),
      'wallet.withdrawals.create': only('create and cancel withdrawals'),
      'wallet.withdrawals.cancel': only('create and cancel withdrawals'),
      'wallet.payouts.retry': only('retry payouts'),
      'wallet.payouts.cancel': only('cancel payouts'),
      'wallet.address-book.create': only('change the address book'),
      'wallet.address-book.delete': only('change the address book'),
      'wallet.approvers.create': only('manage approvers and the approval policy'),
      'wallet.approvers.list': only('manage approvers and the approval policy'),
      'wallet.approvers.delete': only('manage approvers and the approval policy'),
      'wallet.approval-policy.get': only('manage approvers and the approval policy'),
      'wallet.approval-policy.put': only('manage approvers and the approval policy'),
      'wallet.approval-audit.list': only('manage approvers and the approval policy'),
      'microvault.strategy.update': only('change a strategy'),
      'microvault.pause.set': only('pause or resume a vault'),
      'webhook.registrations.create': only('manage webhook registrations'),
      'webhook.registrations.update': only('manage webhook registrations'),
      'webhook.registrations.delete': only('manage webhook registrations'),
      'webhook.registrations.test': only('manage webhook registrations'),
      'webhook.registrations.rotate-secret': only('manage webhook registrations'),
      'webhook.deliveries.retry': only('manage webhook registrations'),
      'identity.api-keys.create': only('manage API keys'),
      'identity.api-keys.list': only('manage API keys'),
      'identity.api-keys.get': only('manage API keys'),
      'identity.api-keys.revoke': only('manage API keys'),
      'identity.api-keys.roll': only('manage API keys'),
      'risk.rules.create': only('manage risk rules and actions'),
      'risk.rules.update': only('manage risk rules and actions'),
      'risk.rules.delete': only('manage risk rules and actions'),
      'risk.actions.update': only('manage risk rules and actions'),
      'risk.sandbox-metrics.inject': only('inject sandbox risk metrics'),
    });
    for (const rule of Object.values(SUBJECT_ROLES)) if (rule.refusal === undefined) expect(rule.roles).toEqual(ROLES);
  });
});

describe('PageQueryDto', () => {
  it.each([['0'], ['101'], ['1.5'], ['abc'], ['-3']])('rejects limit %p', (limit) => {
    expect(validateSync(plainToInstance(PageQueryDto, { limit }))).toHaveLength(1);
  });

  it('accepts 1..100 and no limit', () => {
    for (const limit of ['1', '25', '100', undefined]) {
      expect(validateSync(plainToInstance(PageQueryDto, { limit }))).toEqual([]);
    }
  });
});
