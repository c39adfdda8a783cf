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
