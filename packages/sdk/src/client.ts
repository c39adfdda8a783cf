import { ClientCore, type ServiceClientOptions } from './core.js';
import {
  Accounting,
  Activity,
  AddressBook,
  ApiKeys,
  Approvals,
  type BodyOf,
  Deposits,
  GVaults,
  MicroVaults,
  Risk,
  System,
  Wallets,
  WebhookFamily,
  Withdrawals,
} from './resources.js';

/**
 * The API client: one resource group per area, each call typed from the OpenAPI document.
 *
 * ```ts
 * const client = new ServiceClient({ apiKey: process.env.API_KEY, baseUrl: 'http://127.0.0.1:3000' });
 * const wallet = await client.wallets.create({ strategy: { allocations: { usdc: [{ yieldSourceId: 'service-ustb-vault', pct: 100 }] } } });
 * for await (const item of client.activity.list({ limit: 50 })) console.log(item.type);
 * ```
 */
export class ServiceClient {
  /** The transport: `send` (any status) and `call` (2xx or throw) for routes by path, and the typed `api`. */
  readonly core: ClientCore;
  readonly wallets: Wallets;
  readonly deposits: Deposits;
  readonly withdrawals: Withdrawals;
  readonly approvals: Approvals;
  readonly addressBook: AddressBook;
  readonly activity: Activity;
  /** The accounting reports: period summaries and the ledger's events. */
  readonly accounting: Accounting;
  /** Risk rules, alerts, actions and metrics. */
  readonly risk: Risk;
  /** Portfolio wallet webhooks (`/v2/webhooks`). */
  readonly webhooks: WebhookFamily<BodyOf<'createWebhook'>, BodyOf<'updateWebhook'>>;
  /** Webhook endpoints (`/v2/webhook-endpoints`). */
  readonly webhookEndpoints: WebhookFamily<BodyOf<'createWebhookEndpoint'>, BodyOf<'updateWebhookEndpoint'>>;
  readonly gvaults: GVaults;
  readonly microvaults: MicroVaults;
  readonly apiKeys: ApiKeys;
  readonly system: System;

  constructor(options: ServiceClientOptions) {
    this.core = new ClientCore(options);
    this.wallets = new Wallets(this.core);
    this.deposits = new Deposits(this.core);
    this.withdrawals = new Withdrawals(this.core);
    this.approvals = new Approvals(this.core);
    this.addressBook = new AddressBook(this.core);
    this.activity = new Activity(this.core);
    this.accounting = new Accounting(this.core);
    this.risk = new Risk(this.core);
    this.webhooks = new WebhookFamily(this.core, '/v2/webhooks');
    this.webhookEndpoints = new WebhookFamily(this.core, '/v2/webhook-endpoints');
    this.gvaults = new GVaults(this.core);
    this.microvaults = new MicroVaults(this.core);
    this.apiKeys = new ApiKeys(this.core);
    this.system = new System(this.core);
  }
}
