import { type ClientCore, newIdempotencyKey, withRequestId } from './core.js';
import type { components, operations } from './generated/openapi.js';
import { type Page, PageIterator } from './pagination.js';
import type { RequestOptions } from './transport.js';

/** Every schema of the OpenAPI document, by name. */
export type Schemas = components['schemas'];
/** The JSON body an operation takes. */
export type BodyOf<K extends keyof operations> = operations[K] extends { requestBody: { content: { 'application/json': infer B } } }
  ? B
  : never;
/** Its query parameters, without the cursor (lists page through it themselves). */
export type QueryOf<K extends keyof operations> = Omit<NonNullable<operations[K]['parameters']['query']>, 'cursor'>;
/** A write's body with `requestId` optional: one is generated when missing. */
export type Keyed<B> = Omit<B, 'requestId'> & { requestId?: string };

export type Wallet = Schemas['WalletDto'];
export type Deposit = Schemas['DepositDto'];
export type Withdrawal = Schemas['WithdrawalDto'];
export type PayoutLeg = Schemas['PayoutLegDto'];
export type ActivityItem = Schemas['ActivityItemDto'];
export type PeriodSummary = Schemas['PeriodSummaryDto'];
export type AccountingActivityItem = Schemas['AccountingActivityItemDto'];
export type WalletActivityItem = Schemas['WalletActivityItemDto'];
export type AddressBookEntry = Schemas['AddressBookEntryDto'];
export type ApiKey = Schemas['ApiKeyDto'];
export type CreatedApiKey = Schemas['CreatedApiKeyDto'];
export type WebhookRegistration = Schemas['WebhookRegistrationDto'];
export type CreatedWebhookRegistration = Schemas['CreatedWebhookRegistrationDto'];
export type WebhookDeliveryEvent = Schemas['WebhookDeliveryEventDto'];
export type RotatedWebhookSecret = Schemas['RotatedWebhookSecretDto'];
export type MicroVaultTask = Schemas['MicroVaultTaskDto'];
export type RiskRule = Schemas['RiskRuleDto'];
export type RiskAlert = Schemas['RiskAlertDto'];
export type RiskAction = Schemas['RiskActionDto'];
export type RiskMetricsObservation = Schemas['RiskMetricsObservationDto'];

/** A list's pages as the SDK's {@link Page}. */
function pages<T>(fetch: (cursor: string | undefined) => Promise<{ data: T[]; nextCursor?: string | null }>): PageIterator<T> {
  return new PageIterator<T>(async (cursor) => {
    const page = await fetch(cursor);
    return { data: page.data, nextCursor: page.nextCursor ?? null } satisfies Page<T>;
  });
}

abstract class Resource {
  constructor(protected readonly core: ClientCore) {}

  /**
   * openapi-fetch's per-request `fetch` carrying one call's settings. `idempotent`: the body holds
   * its `requestId`, so the call is resent after a network error too.
   */
  protected via(options: RequestOptions, idempotent = false): { fetch: (request: Request) => Promise<Response> } {
    const { signal, timeoutMs, maxAttempts } = options;
    return { fetch: this.core.fetchFor({ signal, timeoutMs, maxAttempts, idempotent }) };
  }
}

/** `/v2/wallets`: wallets, their strategy, allocations and yield. */
export class Wallets extends Resource {
  /** Creates a wallet (it starts `creating`, then becomes `idle`); idempotent on `requestId`. */
  async create(body: Keyed<BodyOf<'createWallet'>>, options: RequestOptions = {}) {
    return this.core.unwrap(await this.core.api.POST('/v2/wallets', { ...this.via(options, true), body: withRequestId(body) }));
  }
  list(query: QueryOf<'listWallets'> = {}, options: RequestOptions = {}) {
    return pages((cursor) =>
      this.core.api.GET('/v2/wallets', { ...this.via(options), params: { query: { ...query, cursor } } }).then((r) => this.core.unwrap(r)),
    );
  }
  async get(id: string, options: RequestOptions = {}) {
    return this.core.unwrap(await this.core.api.GET('/v2/wallets/{id}', { ...this.via(options), params: { path: { id } } }));
  }
  async update(id: string, body: BodyOf<'updateWallet'>, options: RequestOptions = {}) {
    return this.core.unwrap(await this.core.api.PATCH('/v2/wallets/{id}', { ...this.via(options), params: { path: { id } }, body }));
  }
  async updateStrategy(id: string, body: Keyed<BodyOf<'updateWalletStrategy'>>, options: RequestOptions = {}) {
    return this.core.unwrap(
      await this.core.api.PATCH('/v2/wallets/{id}/strategy', {
        ...this.via(options, true),
        params: { path: { id } },
        body: withRequestId(body),
      }),
    );
  }
  /** Moves amounts between positions (owners and admins); idempotent on `requestId`. */
  async allocate(id: string, body: Keyed<BodyOf<'allocateWallet'>>, options: RequestOptions = {}) {
    return this.core.unwrap(
      await this.core.api.POST('/v2/wallets/{id}/allocate', {
        ...this.via(options, true),
        params: { path: { id } },
        body: withRequestId(body),
      }),
    );
  }
  async previewAllocation(id: string, body: BodyOf<'previewWalletAllocation'>, options: RequestOptions = {}) {
    return this.core.unwrap(
      await this.core.api.POST('/v2/wallets/{id}/allocate-preview', { ...this.via(options), params: { path: { id } }, body }),
    );
  }
  async yield(id: string, options: RequestOptions = {}) {
    return this.core.unwrap(await this.core.api.GET('/v2/wallets/{id}/yield', { ...this.via(options), params: { path: { id } } }));
  }
  /** The wallet's deposits and withdrawals from the accounting ledger, newest first. */
  activity(id: string, query: QueryOf<'listWalletActivity'> = {}, options: RequestOptions = {}) {
    return pages((cursor) =>
      this.core.api
        .GET('/v2/wallets/{id}/activity', { ...this.via(options), params: { path: { id }, query: { ...query, cursor } } })
        .then((r) => this.core.unwrap(r)),
    );
  }
  yieldSources(query: QueryOf<'listWalletYieldSources'> = {}, options: RequestOptions = {}) {
    return pages((cursor) =>
      this.core.api
        .GET('/v2/wallets/yield-sources', { ...this.via(options), params: { query: { ...query, cursor } } })
        .then((r) => this.core.unwrap(r)),
    );
  }
  /** Starts the one-time deposit-address setup of a chain (Stellar); follow it with the approval event. */
  async enableDepositAddress(id: string, chain: string, options: RequestOptions = {}) {
    return this.core.unwrap(
      await this.core.api.POST('/v2/wallets/{id}/deposit-addresses/{chain}/enable', {
        ...this.via(options),
        params: { path: { id, chain } },
      }),
    );
  }
}

/** `/v2/wallets/{id}/deposits`. */
export class Deposits extends Resource {
  list(walletId: string, query: QueryOf<'listWalletDeposits'> = {}, options: RequestOptions = {}) {
    return pages((cursor) =>
      this.core.api
        .GET('/v2/wallets/{id}/deposits', { ...this.via(options), params: { path: { id: walletId }, query: { ...query, cursor } } })
        .then((r) => this.core.unwrap(r)),
    );
  }
  async get(walletId: string, depositId: string, options: RequestOptions = {}) {
    return this.core.unwrap(
      await this.core.api.GET('/v2/wallets/{id}/deposits/{depositId}', {
        ...this.via(options),
        params: { path: { id: walletId, depositId } },
      }),
    );
  }
  async lookup(
    walletId: string,
    query: NonNullable<operations['lookupWalletDeposit']['parameters']['query']>,
    options: RequestOptions = {},
  ) {
    return this.core.unwrap(
      await this.core.api.GET('/v2/wallets/{id}/deposits/lookup', { ...this.via(options), params: { path: { id: walletId }, query } }),
    );
  }
  /** Sandbox only: a deposit that settles after a delay. */
  async simulate(walletId: string, body: BodyOf<'simulateWalletDeposit'>, options: RequestOptions = {}) {
    return this.core.unwrap(
      await this.core.api.POST('/v2/wallets/{id}/deposits/simulate', { ...this.via(options), params: { path: { id: walletId } }, body }),
    );
  }
}

/** `/v2/wallets/{id}/withdrawals` and their payout legs. */
export class Withdrawals extends Resource {
  /** Idempotent on `requestId`. */
  async create(walletId: string, body: Keyed<BodyOf<'createWithdrawal'>>, options: RequestOptions = {}) {
    return this.core.unwrap(
      await this.core.api.POST('/v2/wallets/{id}/withdrawals', {
        ...this.via(options, true),
        params: { path: { id: walletId } },
        body: withRequestId(body),
      }),
    );
  }
  async preview(walletId: string, body: BodyOf<'previewWithdrawal'>, options: RequestOptions = {}) {
    return this.core.unwrap(
      await this.core.api.POST('/v2/wallets/{id}/withdrawal-preview', { ...this.via(options), params: { path: { id: walletId } }, body }),
    );
  }
  list(walletId: string, query: QueryOf<'listWithdrawals'> = {}, options: RequestOptions = {}) {
    return pages((cursor) =>
      this.core.api
        .GET('/v2/wallets/{id}/withdrawals', { ...this.via(options), params: { path: { id: walletId }, query: { ...query, cursor } } })
        .then((r) => this.core.unwrap(r)),
    );
  }
  async get(walletId: string, withdrawalId: string, options: RequestOptions = {}) {
    return this.core.unwrap(
      await this.core.api.GET('/v2/wallets/{id}/withdrawals/{withdrawalId}', {
        ...this.via(options),
        params: { path: { id: walletId, withdrawalId } },
      }),
    );
  }
  async cancel(walletId: string, withdrawalId: string, body: Keyed<BodyOf<'cancelWithdrawal'>> = {}, options: RequestOptions = {}) {
    return this.core.unwrap(
      await this.core.api.POST('/v2/wallets/{id}/withdrawals/{withdrawalId}/cancel', {
        ...this.via(options, true),
        params: { path: { id: walletId, withdrawalId } },
        body: withRequestId(body),
      }),
    );
  }
  async retryPayout(
    walletId: string,
    withdrawalId: string,
    payoutId: string,
    body: Keyed<BodyOf<'retryWithdrawalPayout'>> = {},
    options: RequestOptions = {},
  ) {
    return this.core.unwrap(
      await this.core.api.POST('/v2/wallets/{id}/withdrawals/{withdrawalId}/payouts/{payoutId}/retry', {
        ...this.via(options, true),
        params: { path: { id: walletId, withdrawalId, payoutId } },
        body: withRequestId(body),
      }),
    );
  }
  async cancelPayout(
    walletId: string,
    withdrawalId: string,
    payoutId: string,
    body: Keyed<BodyOf<'cancelWithdrawalPayout'>> = {},
    options: RequestOptions = {},
  ) {
    return this.core.unwrap(
      await this.core.api.POST('/v2/wallets/{id}/withdrawals/{withdrawalId}/payouts/{payoutId}/cancel', {
        ...this.via(options, true),
        params: { path: { id: walletId, withdrawalId, payoutId } },
        body: withRequestId(body),
      }),
    );
  }
}

/** Anything that stamps a payload as Turnkey's `ApiKeyStamper` does (`@turnkey/api-key-stamper`). */
export interface Stamper {
  stamp(payload: string): Promise<{ stampHeaderName: string; stampHeaderValue: string }>;
}

/**
 * Customer approvals (owners and admins manage them): approver keys, the policy, its audit
 * trail, and the Turnkey-style votes that release a payout leg waiting in
 * `pending_customer_approval`.
 */
export class Approvals extends Resource {
  /**
   * Registers an approver's compressed P-256 public key with proof that its holder has it:
   * `stamper` is the new key's own (e.g. `new ApiKeyStamper({ apiPublicKey, apiPrivateKey })`) and
   * stamps the exact body sent (`timestampMs` now unless given). The organization's first approver
   * is registered at once (the approver); after that the answer is the pending change its
   * approvers vote on (`status: 'pending'`, `turnkeyActivityId`).
   */
  async createApprover(
    body: Omit<BodyOf<'createApprover'>, 'timestampMs'> & { timestampMs?: string },
    stamper: Stamper,
    options: RequestOptions = {},
  ): Promise<Schemas['ApproverDto'] | Schemas['ApprovalChangeDto']> {
    const text = JSON.stringify({ label: body.label, publicKey: body.publicKey, timestampMs: body.timestampMs ?? String(Date.now()) });
    const { stampHeaderValue } = await stamper.stamp(text);
    return this.core.call('POST', '/v2/approvals/approvers', { ...options, rawBody: text, headers: { 'X-Stamp': stampHeaderValue } });
  }
  approvers(query: QueryOf<'listApprovers'> = {}, options: RequestOptions = {}) {
    return pages((cursor) =>
      this.core.api
        .GET('/v2/approvals/approvers', { ...this.via(options), params: { query: { ...query, cursor } } })
        .then((r) => this.core.unwrap(r)),
    );
  }
  async deleteApprover(approverId: string, options: RequestOptions = {}) {
    return this.core.unwrap(
      await this.core.api.DELETE('/v2/approvals/approvers/{approverId}', { ...this.via(options), params: { path: { approverId } } }),
    );
  }
  async policy(options: RequestOptions = {}) {
    return this.core.unwrap(await this.core.api.GET('/v2/approvals/policy', this.via(options)));
  }
  async setPolicy(body: BodyOf<'setApprovalPolicy'>, options: RequestOptions = {}) {
    return this.core.unwrap(await this.core.api.PUT('/v2/approvals/policy', { ...this.via(options), body }));
  }
  /** Changes to approvers, the policy and the address book, newest first. */
  audit(query: QueryOf<'listApprovalAudit'> = {}, options: RequestOptions = {}) {
    return pages((cursor) =>
      this.core.api
        .GET('/v2/approvals/audit', { ...this.via(options), params: { query: { ...query, cursor } } })
        .then((r) => this.core.unwrap(r)),
    );
  }
  /** Activities waiting for approvers' votes. */
  async pendingActivities(options: RequestOptions = {}) {
    return this.core.unwrap(await this.core.api.GET('/v2/turnkey/activities/pending', this.via(options)));
  }
  /** The request an approver stamps to approve or reject an activity. */
  async approvalRequest(body: BodyOf<'createActivityApprovalRequest'>, options: RequestOptions = {}) {
    return this.core.unwrap(await this.core.api.POST('/v2/turnkey/activity-approval-request', { ...this.via(options), body }));
  }
  async vote(activityId: string, body: BodyOf<'voteOnActivity'>, options: RequestOptions = {}) {
    return this.core.unwrap(
      await this.core.api.POST('/v2/turnkey/activities/{activityId}/vote', {
        ...this.via(options),
        params: { path: { activityId } },
        body,
      }),
    );
  }
  /** Asks for the approval request, stamps it with `stamper` and votes `action` with it. */
  async voteWith(stamper: Stamper, activityId: string, action: 'approve' | 'reject' = 'approve', options: RequestOptions = {}) {
    const request = await this.approvalRequest({ activityId, action }, options);
    const stamp = await stamper.stamp(request.stampPayload);
    return this.vote(activityId, { action, customerApprovalStamp: stamp, turnkeyRequest: request.turnkeyRequest }, options);
  }
}

/** `/v2/address-book/entries`. */
export class AddressBook extends Resource {
  async create(body: BodyOf<'createAddressBookEntry'>, options: RequestOptions = {}) {
    return this.core.unwrap(await this.core.api.POST('/v2/address-book/entries', { ...this.via(options), body }));
  }
  list(query: QueryOf<'listAddressBookEntries'> = {}, options: RequestOptions = {}) {
    return pages((cursor) =>
      this.core.api
        .GET('/v2/address-book/entries', { ...this.via(options), params: { query: { ...query, cursor } } })
        .then((r) => this.core.unwrap(r)),
    );
  }
  async remove(entryId: string, options: RequestOptions = {}) {
    return this.core.unwrap(
      await this.core.api.DELETE('/v2/address-book/entries/{entryId}', { ...this.via(options), params: { path: { entryId } } }),
    );
  }
}

/** `/v2/activity`: the organization's deposits, withdrawals and rebalances, newest first. */
export class Activity extends Resource {
  list(query: QueryOf<'listActivity'> = {}, options: RequestOptions = {}) {
    return pages((cursor) =>
      this.core.api.GET('/v2/activity', { ...this.via(options), params: { query: { ...query, cursor } } }).then((r) => this.core.unwrap(r)),
    );
  }
}

/** `/v2/accounting`: a period's yield and performance of a wallet or the organization, and the ledger's events. */
export class Accounting extends Resource {
  /** Exactly one of `walletId` or `scope: 'organization'`; `start` inclusive, `end` exclusive. */
  async periodSummary(query: QueryOf<'getAccountingYieldPeriodSummary'>, options: RequestOptions = {}) {
    return this.core.unwrap(await this.core.api.GET('/v2/accounting/yield/period-summary', { ...this.via(options), params: { query } }));
  }
  /** The ledger's events in `[startAt, endAt)`, newest first. */
  activity(query: QueryOf<'listAccountingActivity'>, options: RequestOptions = {}) {
    return pages((cursor) =>
      this.core.api
        .GET('/v2/accounting/activity', { ...this.via(options), params: { query: { ...query, cursor } } })
        .then((r) => this.core.unwrap(r)),
    );
  }
}

/** `/v2/wallets/risk/rules`: what to watch on a yield source of a wallet, and what to do on breach. */
export class RiskRules extends Resource {
  /** Owners and admins; a source already in breach opens the rule's alert at once. */
  async create(body: BodyOf<'createRiskRule'>, options: RequestOptions = {}) {
    return this.core.unwrap(await this.core.api.POST('/v2/wallets/risk/rules', { ...this.via(options), body }));
  }
  list(query: QueryOf<'listRiskRules'> = {}, options: RequestOptions = {}) {
    return pages((cursor) =>
      this.core.api
        .GET('/v2/wallets/risk/rules', { ...this.via(options), params: { query: { ...query, cursor } } })
        .then((r) => this.core.unwrap(r)),
    );
  }
  async update(riskRuleId: string, body: BodyOf<'updateRiskRule'>, options: RequestOptions = {}) {
    return this.core.unwrap(
      await this.core.api.PATCH('/v2/wallets/risk/rules/{riskRuleId}', { ...this.via(options), params: { path: { riskRuleId } }, body }),
    );
  }
  /** Resolves the rule's open alert and rejects its pending actions. */
  async remove(riskRuleId: string, options: RequestOptions = {}) {
    return this.core.unwrap(
      await this.core.api.DELETE('/v2/wallets/risk/rules/{riskRuleId}', { ...this.via(options), params: { path: { riskRuleId } } }),
    );
  }
}

/** `/v2/wallets/risk/alerts`: one per breached rule while `ongoing`, then `resolved`. */
export class RiskAlerts extends Resource {
  list(query: QueryOf<'listRiskAlerts'> = {}, options: RequestOptions = {}) {
    return pages((cursor) =>
      this.core.api
        .GET('/v2/wallets/risk/alerts', { ...this.via(options), params: { query: { ...query, cursor } } })
        .then((r) => this.core.unwrap(r)),
    );
  }
}

/** `/v2/wallets/risk/actions`: blocks and exits the alerts call for. */
export class RiskActions extends Resource {
  list(query: QueryOf<'listRiskActions'> = {}, options: RequestOptions = {}) {
    return pages((cursor) =>
      this.core.api
        .GET('/v2/wallets/risk/actions', { ...this.via(options), params: { query: { ...query, cursor } } })
        .then((r) => this.core.unwrap(r)),
    );
  }
  /** Approves or rejects an action in `pending_approval` (owners and admins). */
  async decide(riskActionId: string, status: 'approved' | 'rejected', options: RequestOptions = {}) {
    return this.core.unwrap(
      await this.core.api.PATCH('/v2/wallets/risk/actions/{riskActionId}', {
        ...this.via(options),
        params: { path: { riskActionId } },
        body: { status },
      }),
    );
  }
}

/** `/v2/wallets/risk/metrics` and, in the sandbox, `/v2/sandbox/risk/metrics`. */
export class RiskMetrics extends Resource {
  /** The latest observation per source, or series with `latestOnly: false` (not paginated). */
  async list(query: NonNullable<operations['listRiskMetrics']['parameters']['query']> = {}, options: RequestOptions = {}) {
    return this.core.unwrap(await this.core.api.GET('/v2/wallets/risk/metrics', { ...this.via(options), params: { query } }));
  }
  /** Sandbox only: an observation for the caller's organization now, evaluated at once. */
  async inject(body: BodyOf<'injectSandboxRiskMetrics'>, options: RequestOptions = {}) {
    return this.core.unwrap(await this.core.api.POST('/v2/sandbox/risk/metrics', { ...this.via(options), body }));
  }
}

/** The risk engine: rules, alerts, actions and metrics. */
export class Risk {
  readonly rules: RiskRules;
  readonly alerts: RiskAlerts;
  readonly actions: RiskActions;
  readonly metrics: RiskMetrics;
  constructor(core: ClientCore) {
    this.rules = new RiskRules(core);
    this.alerts = new RiskAlerts(core);
    this.actions = new RiskActions(core);
    this.metrics = new RiskMetrics(core);
  }
}

/**
 * One webhook family (`/v2/webhooks`, `/v2/webhook-endpoints`, `/v2/gvaults/webhooks`): the same
 * routes under three paths.
 */
export class WebhookFamily<Create extends object, Update extends object> extends Resource {
  constructor(
    core: ClientCore,
    readonly path: string,
  ) {
    super(core);
  }
  /** Registers a receiver; the answer carries the signing `secret`, shown only here. */
  create(body: Create, options: RequestOptions = {}): Promise<CreatedWebhookRegistration> {
    return this.core.call('POST', this.path, { ...options, body });
  }
  list(query: { limit?: number } = {}, options: RequestOptions = {}): PageIterator<WebhookRegistration> {
    return pages((cursor) => this.core.call<Page<WebhookRegistration>>('GET', this.path, { ...options, query: { ...query, cursor } }));
  }
  get(id: string, options: RequestOptions = {}): Promise<WebhookRegistration> {
    return this.core.call('GET', `${this.path}/${encodeURIComponent(id)}`, options);
  }
  update(id: string, body: Update, options: RequestOptions = {}): Promise<WebhookRegistration> {
    return this.core.call('PATCH', `${this.path}/${encodeURIComponent(id)}`, { ...options, body });
  }
  remove(id: string, options: RequestOptions = {}): Promise<Schemas['DeletedWebhookDto']> {
    return this.core.call('DELETE', `${this.path}/${encodeURIComponent(id)}`, options);
  }
  /** The delivery history of one registration, or of the whole family without `id`. */
  events(id?: string, query: { limit?: number } = {}, options: RequestOptions = {}): PageIterator<WebhookDeliveryEvent> {
    const path = id === undefined ? `${this.path}/events` : `${this.path}/${encodeURIComponent(id)}/events`;
    return pages((cursor) => this.core.call<Page<WebhookDeliveryEvent>>('GET', path, { ...options, query: { ...query, cursor } }));
  }
  retry(id: string, eventId: string, options: RequestOptions = {}): Promise<WebhookDeliveryEvent> {
    return this.core.call('POST', `${this.path}/${encodeURIComponent(id)}/events/${encodeURIComponent(eventId)}/retry`, options);
  }
  /** Sends a signed `webhook.test` delivery. */
  test(id: string, options: RequestOptions = {}): Promise<WebhookDeliveryEvent> {
    return this.core.call('POST', `${this.path}/${encodeURIComponent(id)}/test`, options);
  }
  /**
   * Replaces the signing secret; the answer carries the new `secret`, shown only here. The old one
   * keeps signing every delivery beside it until `previousSecretExpiresAt` (`expiresInSeconds`:
   * a day by default, at most a week, 0 stops it at once), so a receiver can switch without
   * refusing a delivery: `verifyWebhook` accepts either secret during the overlap.
   */
  rotateSecret(id: string, body: BodyOf<'rotateWebhookSecret'> = {}, options: RequestOptions = {}): Promise<RotatedWebhookSecret> {
    return this.core.call('POST', `${this.path}/${encodeURIComponent(id)}/secret/rotate`, { ...options, body });
  }
}

/** gtokens: the catalogue, allowlist checks, and the gtoken webhook family. */
export class GVaults extends Resource {
  readonly webhooks: WebhookFamily<BodyOf<'createGVaultWebhook'>, BodyOf<'updateGVaultWebhook'>>;
  constructor(core: ClientCore) {
    super(core);
    this.webhooks = new WebhookFamily(core, '/v2/gvaults/webhooks');
  }
  /** The whole catalogue (not paginated). */
  async yieldSources(options: RequestOptions = {}) {
    return this.core.unwrap(await this.core.api.GET('/v2/gvaults/yield-sources', this.via(options)));
  }
  async allowlist(gVaultId: string, address: string, options: RequestOptions = {}) {
    return this.core.unwrap(
      await this.core.api.GET('/v2/gvaults/{gVaultId}/allowlist/{address}', {
        ...this.via(options),
        params: { path: { gVaultId, address } },
      }),
    );
  }
}

/** MicroVaults (sandbox preview). Writes carry an `Idempotency-Key`, generated when not given. */
export class MicroVaults extends Resource {
  async setStrategy(vaultId: string, body: BodyOf<'setMicroVaultStrategy'>, options: RequestOptions & { idempotencyKey?: string } = {}) {
    const header = { 'Idempotency-Key': options.idempotencyKey ?? newIdempotencyKey() };
    return this.core.unwrap(
      await this.core.api.PUT('/v2/microvaults/vaults/{vaultId}/strategy', {
        ...this.via(options),
        params: { path: { vaultId }, header },
        body,
      }),
    );
  }
  async setPause(vaultId: string, body: BodyOf<'setMicroVaultPause'>, options: RequestOptions & { idempotencyKey?: string } = {}) {
    const header = { 'Idempotency-Key': options.idempotencyKey ?? newIdempotencyKey() };
    return this.core.unwrap(
      await this.core.api.PUT('/v2/microvaults/vaults/{vaultId}/pause', {
        ...this.via(options),
        params: { path: { vaultId }, header },
        body,
      }),
    );
  }
  async pauseStatus(vaultId: string, options: RequestOptions = {}) {
    return this.core.unwrap(
      await this.core.api.GET('/v2/microvaults/vaults/{vaultId}/pause-status', { ...this.via(options), params: { path: { vaultId } } }),
    );
  }
  tasks(vaultId: string, query: QueryOf<'listMicroVaultTasks'> = {}, options: RequestOptions = {}) {
    return pages((cursor) =>
      this.core.api
        .GET('/v2/microvaults/vaults/{vaultId}/tasks', { ...this.via(options), params: { path: { vaultId }, query: { ...query, cursor } } })
        .then((r) => this.core.unwrap(r)),
    );
  }
  async task(taskId: string, options: RequestOptions = {}) {
    return this.core.unwrap(
      await this.core.api.GET('/v2/microvaults/tasks/{taskId}', { ...this.via(options), params: { path: { taskId } } }),
    );
  }
}

/** `/v2/api-keys` (owners and admins). */
export class ApiKeys extends Resource {
  /** The answer's `key` is shown only here. */
  async create(body: BodyOf<'createApiKey'>, options: RequestOptions = {}) {
    return this.core.unwrap(await this.core.api.POST('/v2/api-keys', { ...this.via(options), body }));
  }
  list(query: QueryOf<'listApiKeys'> = {}, options: RequestOptions = {}) {
    return pages((cursor) =>
      this.core.api.GET('/v2/api-keys', { ...this.via(options), params: { query: { ...query, cursor } } }).then((r) => this.core.unwrap(r)),
    );
  }
  async get(id: string, options: RequestOptions = {}) {
    return this.core.unwrap(await this.core.api.GET('/v2/api-keys/{id}', { ...this.via(options), params: { path: { id } } }));
  }
  async revoke(id: string, options: RequestOptions = {}) {
    return this.core.unwrap(await this.core.api.DELETE('/v2/api-keys/{id}', { ...this.via(options), params: { path: { id } } }));
  }
  async roll(id: string, body: BodyOf<'rollApiKey'> = { expiresInSeconds: 0 }, options: RequestOptions = {}) {
    return this.core.unwrap(await this.core.api.POST('/v2/api-keys/{id}/roll', { ...this.via(options), params: { path: { id } }, body }));
  }
}

export class System extends Resource {
  async ping(options: RequestOptions = {}) {
    return this.core.unwrap(await this.core.api.GET('/v2/system/ping', this.via(options)));
  }
}
