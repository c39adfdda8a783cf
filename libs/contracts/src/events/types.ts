import type { ServiceName } from '../subjects.js';

/**
 * Event types of the interface. `/v2/webhooks` subscribes to the first list,
 * `/v2/webhook-endpoints` to the second; gtoken registrations to the gtoken catalogue.
 */
export const PORTFOLIO_WALLET_WEBHOOK_EVENTS = [
  'portfolio_wallet.status_changed',
  'portfolio_wallet.deposit.status_changed',
  'portfolio_wallet.withdrawal.status_changed',
  'portfolio_wallet.withdrawal.payout.status_changed',
  'portfolio_wallet.approval.status_changed',
  'portfolio_wallet.strategy.status_changed',
  'portfolio_wallet.rebalance.status_changed',
  'portfolio_wallet.risk.alert.triggered',
  'portfolio_wallet.risk.alert.resolved',
  'portfolio_wallet.risk.action.status_changed',
  'portfolio_wallet.risk.unwind.completed',
] as const;

export const WEBHOOK_ENDPOINT_EVENTS = [
  'portfolio_wallet.balance.updated',
  'portfolio_wallet.deposit.status_changed',
  'portfolio_wallet.withdrawal.status_changed',
  'portfolio_wallet.withdrawal.payout.status_changed',
  'portfolio_wallet.position.updated',
  'portfolio_wallet.strategy.status_changed',
] as const;

export const GTOKEN_EVENTS = ['gvault.allowlist.updated'] as const;

export type PortfolioWalletWebhookEvent = (typeof PORTFOLIO_WALLET_WEBHOOK_EVENTS)[number];
export type WebhookEndpointEvent = (typeof WEBHOOK_ENDPOINT_EVENTS)[number];
export type PortfolioWalletEventType = PortfolioWalletWebhookEvent | WebhookEndpointEvent;
export type GTokenEventType = (typeof GTOKEN_EVENTS)[number];
/**
 * Events between services only, never delivered to a receiver: no registration family lists them
 * (so no registration can subscribe to them), webhook-service acks them without fan-out, and they
 * are not in {@link DOMAIN_EVENT_TYPES}. `risk.metrics.observed`: each metric observation
 * risk-service records (wallet-service's catalogue figures).
 */
export const INTERNAL_EVENTS = ['risk.metrics.observed'] as const;
export type InternalEventType = (typeof INTERNAL_EVENTS)[number];
/** Event types a webhook registration may subscribe to. */
export type WebhookEventType = PortfolioWalletEventType | GTokenEventType;
export type DomainEventType = WebhookEventType | InternalEventType;

/** Whether an event type is internal ({@link INTERNAL_EVENTS}): no webhook delivers it. */
export function isInternalEvent(type: string): type is InternalEventType {
  return (INTERNAL_EVENTS as readonly string[]).includes(type);
}

export const WEBHOOK_FAMILIES = {
  webhooks: PORTFOLIO_WALLET_WEBHOOK_EVENTS,
  'webhook-endpoints': WEBHOOK_ENDPOINT_EVENTS,
  gvault: GTOKEN_EVENTS,
} as const;
export type WebhookFamily = keyof typeof WEBHOOK_FAMILIES;

/**
 * `orgId` of events about shared onchain state rather than one organization's data (gtoken
 * allowlist changes): they go to the matching registrations of every organization.
 */
export const ALL_ORGANIZATIONS = '*';

/**
 * Every event type delivered to webhooks, once: the list READMEs, docs and the OpenAPI document are
 * checked against ({@link INTERNAL_EVENTS} are not in it).
 */
export const DOMAIN_EVENT_TYPES: readonly WebhookEventType[] = [
  ...new Set<WebhookEventType>([...PORTFOLIO_WALLET_WEBHOOK_EVENTS, ...WEBHOOK_ENDPOINT_EVENTS, ...GTOKEN_EVENTS]),
];

/**
 * The one service whose outbox relay publishes each event type, on
 * `<prefix>.<publisher>.<type>` (`eventSubject`). Each service's NATS user may publish only under
 * `<prefix>.<its name>.>`, so the subject proves who sent an event, and every durable consumer
 * refuses (terminates) an event on any other subject: a service's credential cannot pass off a
 * wallet event, or another service's, as genuine. A new event type does not compile until it is
 * given its publisher here.
 */
export const EVENT_PUBLISHERS: Readonly<Record<DomainEventType, ServiceName>> = {
  'portfolio_wallet.status_changed': 'wallet',
  'portfolio_wallet.balance.updated': 'wallet',
  'portfolio_wallet.deposit.status_changed': 'wallet',
  'portfolio_wallet.withdrawal.status_changed': 'wallet',
  'portfolio_wallet.withdrawal.payout.status_changed': 'wallet',
  'portfolio_wallet.position.updated': 'wallet',
  'portfolio_wallet.approval.status_changed': 'wallet',
  'portfolio_wallet.strategy.status_changed': 'wallet',
  'portfolio_wallet.rebalance.status_changed': 'wallet',
  'portfolio_wallet.risk.alert.triggered': 'risk',
  'portfolio_wallet.risk.alert.resolved': 'risk',
  'portfolio_wallet.risk.action.status_changed': 'risk',
  'portfolio_wallet.risk.unwind.completed': 'risk',
  'gvault.allowlist.updated': 'gvault',
  'risk.metrics.observed': 'risk',
};

/**
 * Event types whose `orgId` may be {@link ALL_ORGANIZATIONS}: gtoken allowlist changes (shared
 * onchain state, delivered to every organization's registrations) and risk-service's provider
 * readings (internal, never delivered). An event of any other type for all organizations is
 * refused by every consumer.
 */
export const ALL_ORGANIZATIONS_EVENTS: readonly DomainEventType[] = [...GTOKEN_EVENTS, 'risk.metrics.observed'];

/** The publisher of an event type, or undefined for a string that is no event type. */
export function publisherOf(type: string): ServiceName | undefined {
  return Object.hasOwn(EVENT_PUBLISHERS, type) ? EVENT_PUBLISHERS[type as DomainEventType] : undefined;
}
