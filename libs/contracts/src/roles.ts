import type { Subject } from './contract.js';
import { ROLES, type Role } from './rpc.js';

/**
 * Who may call a subject: `roles`, and for a subject that is not open to every role, the message
 * of the `forbidden` error (403) another role gets.
 */
export type RoleRule =
  { readonly roles: typeof ROLES; readonly refusal?: undefined } | { readonly roles: readonly Role[]; readonly refusal: string };

/** Open to every role: no role is refused. */
export const EVERY_ROLE: RoleRule = { roles: ROLES };

function ownersAndAdmins(refusal: string): RoleRule {
  return { roles: ['owner', 'admin'], refusal: `Only organization owners and admins may ${refusal}.` };
}

const ALLOCATE = ownersAndAdmins('allocate');
/** A strategy change rebalances: it moves money between positions (or a MicroVault's sources). */
const STRATEGY = ownersAndAdmins('change a strategy');
const WITHDRAWALS = ownersAndAdmins('create and cancel withdrawals');
/** A registration receives the organization's events: redirecting, replaying or testing them is not a member's call. */
const WEBHOOKS = ownersAndAdmins('manage webhook registrations');
/** A whitelist policy pays out only to the address book. */
const ADDRESS_BOOK = ownersAndAdmins('change the address book');
const APPROVALS = ownersAndAdmins('manage approvers and the approval policy');
const API_KEYS = ownersAndAdmins('manage API keys');
const RISK = ownersAndAdmins('manage risk rules and actions');

/**
 * The role rule of every subject, written once: the service refuses another role before its
 * handler runs (`@Handles` in `@service/service-runtime`), and the gateway documents the rule of
 * the route that asks the subject (`x-required-roles` in the OpenAPI document). Every subject is
 * listed, so a new one states its rule.
 */
export const SUBJECT_ROLES: { readonly [S in Subject]: RoleRule } = {
  'wallet.health.check': EVERY_ROLE,
  'wallet.yield-sources.list': EVERY_ROLE,
  'wallet.wallets.create': EVERY_ROLE,
  'wallet.wallets.list': EVERY_ROLE,
  'wallet.wallets.get': EVERY_ROLE,
  'wallet.wallets.update': EVERY_ROLE,
  'wallet.strategy.update': STRATEGY,
  'wallet.yield.get': EVERY_ROLE,
  'wallet.accounting.period-summary': EVERY_ROLE,
  'wallet.accounting.activity': EVERY_ROLE,
  'wallet.activity.list': EVERY_ROLE,
  'wallet.deposits.simulate': EVERY_ROLE,
  'wallet.deposits.list': EVERY_ROLE,
  'wallet.deposits.get': EVERY_ROLE,
  'wallet.deposits.lookup': EVERY_ROLE,
  'wallet.rebalances.allocate': ALLOCATE,
  'wallet.rebalances.preview': EVERY_ROLE,
  'wallet.withdrawals.preview': EVERY_ROLE,
  'wallet.withdrawals.create': WITHDRAWALS,
  'wallet.withdrawals.list': EVERY_ROLE,
  'wallet.withdrawals.get': EVERY_ROLE,
  'wallet.withdrawals.cancel': WITHDRAWALS,
  'wallet.payouts.retry': ownersAndAdmins('retry payouts'),
  'wallet.payouts.cancel': ownersAndAdmins('cancel payouts'),
  'wallet.address-book.create': ADDRESS_BOOK,
  'wallet.address-book.list': EVERY_ROLE,
  'wallet.address-book.delete': ADDRESS_BOOK,
  'wallet.deposit-addresses.enable': EVERY_ROLE,
  'wallet.approvers.create': APPROVALS,
  'wallet.approvers.list': APPROVALS,
  'wallet.approvers.delete': APPROVALS,
  'wallet.approval-policy.get': APPROVALS,
  'wallet.approval-policy.put': APPROVALS,
  'wallet.approval-audit.list': APPROVALS,
  'wallet.turnkey.pending': EVERY_ROLE,
  'wallet.turnkey.approval-request': EVERY_ROLE,
  'wallet.turnkey.vote': EVERY_ROLE,
  'wallet.sandbox.fail-next-payout': EVERY_ROLE,
  'wallet.sandbox.pin-clock': EVERY_ROLE,
  'gvault.health.check': EVERY_ROLE,
  'gvault.yield-sources.list': EVERY_ROLE,
  'gvault.allowlist.check': EVERY_ROLE,
  'microvault.health.check': EVERY_ROLE,
  'microvault.strategy.update': STRATEGY,
  'microvault.pause.set': ownersAndAdmins('pause or resume a vault'),
  'microvault.pause-status.get': EVERY_ROLE,
  'microvault.tasks.get': EVERY_ROLE,
  'microvault.tasks.list': EVERY_ROLE,
  'microvault.organizations.enable': EVERY_ROLE,
  'microvault.vaults.create': EVERY_ROLE,
  'webhook.health.check': EVERY_ROLE,
  'webhook.registrations.create': WEBHOOKS,
  'webhook.registrations.list': EVERY_ROLE,
  'webhook.registrations.get': EVERY_ROLE,
  'webhook.registrations.update': WEBHOOKS,
  'webhook.registrations.delete': WEBHOOKS,
  'webhook.registrations.test': WEBHOOKS,
  'webhook.registrations.rotate-secret': WEBHOOKS,
  'webhook.deliveries.list': EVERY_ROLE,
  'webhook.deliveries.retry': WEBHOOKS,
  'activity.health.check': EVERY_ROLE,
  'activity.feed.list': EVERY_ROLE,
  'identity.health.check': EVERY_ROLE,
  // An admin may not create, revoke or roll an owner key either: that rule needs the key, and
  // identity-service applies it.
  'identity.api-keys.create': API_KEYS,
  'identity.api-keys.list': API_KEYS,
  'identity.api-keys.get': API_KEYS,
  'identity.api-keys.revoke': API_KEYS,
  'identity.api-keys.roll': API_KEYS,
  'identity.api-keys.authenticate': EVERY_ROLE,
  'risk.health.check': EVERY_ROLE,
  'risk.rules.create': RISK,
  'risk.rules.list': EVERY_ROLE,
  'risk.rules.update': RISK,
  'risk.rules.delete': RISK,
  'risk.alerts.list': EVERY_ROLE,
  'risk.actions.list': EVERY_ROLE,
  'risk.actions.update': RISK,
  'risk.metrics.list': EVERY_ROLE,
  'risk.sandbox-metrics.inject': ownersAndAdmins('inject sandbox risk metrics'),
};

/** The message of the `forbidden` error `role` gets from `subject`, or undefined when the role may call it. */
export function refusalOf(subject: Subject, role: Role | undefined): string | undefined {
  const rule = SUBJECT_ROLES[subject];
  return rule.refusal !== undefined && !rule.roles.includes(role as Role) ? rule.refusal : undefined;
}
