import { type ClientCore, newIdempotencyKey, withRequestId } from './core.js';
import type { components, operations } from './generated/openapi.js';
import { type Page, PageIterator } from './pagination.js';

/** Every schema of the OpenAPI document, by name. */
export type Schemas = components['schemas'];
/** The JSON body an operation takes. */
export type BodyOf<K extends keyof operations> = operations[K] extends { requestBody: { content: { 'application/json': infer B } } } ? B : never;
/** Its query parameters, without the cursor (lists page through it themselves). */
export type QueryOf<K extends keyof operations> = Omit<NonNullable<operations[K]['parameters']['query']>, 'cursor'>;
/** A write's body with `requestId` optional: one is generated when missing. */
export type Keyed<B> = Omit<B, 'requestId'> & { requestId?: string };

export type Wallet = Schemas['WalletDto'];
export type Deposit = Schemas['DepositDto'];
export type Withdrawal = Schemas['WithdrawalDto'];
export type PayoutLeg = Schemas['PayoutLegDto'];
export type ActivityItem = Schemas['ActivityItemDto'];
export type AddressBookEntry = Schemas['AddressBookEntryDto'];
export type ApiKey = Schemas['ApiKeyDto'];
export type CreatedApiKey = Schemas['CreatedApiKeyDto'];
export type WebhookRegistration = Schemas['WebhookRegistrationDto'];
export type CreatedWebhookRegistration = Schemas['CreatedWebhookRegistrationDto'];
export type WebhookDeliveryEvent = Schemas['WebhookDeliveryEventDto'];
export type MicroVaultTask = Schemas['MicroVaultTaskDto'];

/** A list's pages as the SDK's {@link Page}. */
function pages<T>(fetch: (cursor: string | undefined) => Promise<{ data: T[]; nextCursor?: string | null }>): PageIterator<T> {
  return new PageIterator<T>(async (cursor) => {
    const page = await fetch(cursor);
    return { data: page.data, nextCursor: page.nextCursor ?? null } satisfies Page<T>;
  });
}

abstract class Resource {
  constructor(protected readonly core: ClientCore) {}
}

/** `/v2/wallets`: wallets, their strategy, allocations and yield. */
export class Wallets extends Resource {
  /** Creates a wallet (it starts `creating`, then becomes `idle`); idempotent on `requestId`. */
  async create(body: Keyed<BodyOf<'WalletsController_create'>>) {
    return this.core.unwrap(await this.core.api.POST('/v2/wallets', { body: withRequestId(body) }));
  }
  list(query: QueryOf<'WalletsController_list'> = {}) {
    return pages((cursor) => this.core.api.GET('/v2/wallets', { params: { query: { ...query, cursor } } }).then((r) => this.core.unwrap(r)));
  }
  async get(id: string) {
    return this.core.unwrap(await this.core.api.GET('/v2/wallets/{id}', { params: { path: { id } } }));
  }
  async update(id: string, body: BodyOf<'WalletsController_update'>) {
    return this.core.unwrap(await this.core.api.PATCH('/v2/wallets/{id}', { params: { path: { id } }, body }));
  }
  async updateStrategy(id: string, body: Keyed<BodyOf<'WalletsController_updateStrategy'>>) {
    return this.core.unwrap(await this.core.api.PATCH('/v2/wallets/{id}/strategy', { params: { path: { id } }, body: withRequestId(body) }));
  }
  /** Moves amounts between positions (owners and admins); idempotent on `requestId`. */
  async allocate(id: string, body: Keyed<BodyOf<'WalletsController_allocate'>>) {
    return this.core.unwrap(await this.core.api.POST('/v2/wallets/{id}/allocate', { params: { path: { id } }, body: withRequestId(body) }));
  }
  async previewAllocation(id: string, body: BodyOf<'WalletsController_preview'>) {
    return this.core.unwrap(await this.core.api.POST('/v2/wallets/{id}/allocate-preview', { params: { path: { id } }, body }));
  }
  async yield(id: string) {
    return this.core.unwrap(await this.core.api.GET('/v2/wallets/{id}/yield', { params: { path: { id } } }));
  }
  yieldSources(query: QueryOf<'WalletsController_yieldSources'> = {}) {
    return pages((cursor) => this.core.api.GET('/v2/wallets/yield-sources', { params: { query: { ...query, cursor } } }).then((r) => this.core.unwrap(r)));
  }
  /** Starts the one-time deposit-address setup of a chain (Stellar); follow it with the approval event. */
  async enableDepositAddress(id: string, chain: string) {
    return this.core.unwrap(await this.core.api.POST('/v2/wallets/{id}/deposit-addresses/{chain}/enable', { params: { path: { id, chain } } }));
  }
}

/** `/v2/wallets/{id}/deposits`. */
export class Deposits extends Resource {
  list(walletId: string, query: QueryOf<'WalletsController_deposits'> = {}) {
    return pages((cursor) =>
      this.core.api.GET('/v2/wallets/{id}/deposits', { params: { path: { id: walletId }, query: { ...query, cursor } } }).then((r) => this.core.unwrap(r)),
    );
  }
  async get(walletId: string, depositId: string) {
    return this.core.unwrap(await this.core.api.GET('/v2/wallets/{id}/deposits/{depositId}', { params: { path: { id: walletId, depositId } } }));
  }
  async lookup(walletId: string, query: NonNullable<operations['WalletsController_lookupDeposit']['parameters']['query']>) {
    return this.core.unwrap(await this.core.api.GET('/v2/wallets/{id}/deposits/lookup', { params: { path: { id: walletId }, query } }));
  }
  /** Sandbox only: a deposit that settles after a delay. */
  async simulate(walletId: string, body: BodyOf<'WalletsController_simulateDeposit'>) {
    return this.core.unwrap(await this.core.api.POST('/v2/wallets/{id}/deposits/simulate', { params: { path: { id: walletId } }, body }));
  }
}

/** `/v2/wallets/{id}/withdrawals` and their payout legs. */
export class Withdrawals extends Resource {
  /** Idempotent on `requestId`. */
  async create(walletId: string, body: Keyed<BodyOf<'WithdrawalsController_create'>>) {
    return this.core.unwrap(await this.core.api.POST('/v2/wallets/{id}/withdrawals', { params: { path: { id: walletId } }, body: withRequestId(body) }));
  }
  async preview(walletId: string, body: BodyOf<'WithdrawalsController_preview'>) {
    return this.core.unwrap(await this.core.api.POST('/v2/wallets/{id}/withdrawal-preview', { params: { path: { id: walletId } }, body }));
  }
  list(walletId: string, query: QueryOf<'WithdrawalsController_list'> = {}) {
    return pages((cursor) =>
      this.core.api.GET('/v2/wallets/{id}/withdrawals', { params: { path: { id: walletId }, query: { ...query, cursor } } }).then((r) => this.core.unwrap(r)),
    );
  }
  async get(walletId: string, withdrawalId: string) {
    return this.core.unwrap(await this.core.api.GET('/v2/wallets/{id}/withdrawals/{withdrawalId}', { params: { path: { id: walletId, withdrawalId } } }));
  }
  async cancel(walletId: string, withdrawalId: string, body: Keyed<BodyOf<'WithdrawalsController_cancel'>> = {}) {
    return this.core.unwrap(
      await this.core.api.POST('/v2/wallets/{id}/withdrawals/{withdrawalId}/cancel', { params: { path: { id: walletId, withdrawalId } }, body: withRequestId(body) }),
    );
  }
  async retryPayout(walletId: string, withdrawalId: string, payoutId: string, body: Keyed<BodyOf<'WithdrawalsController_retryPayout'>> = {}) {
    return this.core.unwrap(
      await this.core.api.POST('/v2/wallets/{id}/withdrawals/{withdrawalId}/payouts/{payoutId}/retry', {
        params: { path: { id: walletId, withdrawalId, payoutId } },
        body: withRequestId(body),
      }),
    );
  }
  async cancelPayout(walletId: string, withdrawalId: string, payoutId: string, body: Keyed<BodyOf<'WithdrawalsController_cancelPayout'>> = {}) {
    return this.core.unwrap(
      await this.core.api.POST('/v2/wallets/{id}/withdrawals/{withdrawalId}/payouts/{payoutId}/cancel', {
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
  /** Registers an approver's compressed P-256 public key. */
  async createApprover(body: BodyOf<'ApprovalsController_createApprover'>) {
    return this.core.unwrap(await this.core.api.POST('/v2/approvals/approvers', { body }));
  }
  approvers(query: QueryOf<'ApprovalsController_listApprovers'> = {}) {
    return pages((cursor) => this.core.api.GET('/v2/approvals/approvers', { params: { query: { ...query, cursor } } }).then((r) => this.core.unwrap(r)));
  }
  async deleteApprover(approverId: string) {
    return this.core.unwrap(await this.core.api.DELETE('/v2/approvals/approvers/{approverId}', { params: { path: { approverId } } }));
  }
  async policy() {
    return this.core.unwrap(await this.core.api.GET('/v2/approvals/policy'));
  }
  async setPolicy(body: BodyOf<'ApprovalsController_putPolicy'>) {
    return this.core.unwrap(await this.core.api.PUT('/v2/approvals/policy', { body }));
  }
  /** Changes to approvers and the policy, newest first. */
  audit(query: QueryOf<'ApprovalsController_listAudit'> = {}) {
    return pages((cursor) => this.core.api.GET('/v2/approvals/audit', { params: { query: { ...query, cursor } } }).then((r) => this.core.unwrap(r)));
  }
  /** Activities waiting for approvers' votes. */
  async pendingActivities() {
    return this.core.unwrap(await this.core.api.GET('/v2/turnkey/activities/pending'));
  }
  /** The request an approver stamps to approve or reject an activity. */
  async approvalRequest(body: BodyOf<'TurnkeyController_approvalRequest'>) {
    return this.core.unwrap(await this.core.api.POST('/v2/turnkey/activity-approval-request', { body }));
  }
  async vote(activityId: string, body: BodyOf<'TurnkeyController_vote'>) {
    return this.core.unwrap(await this.core.api.POST('/v2/turnkey/activities/{activityId}/vote', { params: { path: { activityId } }, body }));
  }
  /** Asks for the approval request, stamps it with `stamper` and votes `action` with it. */
  async voteWith(stamper: Stamper, activityId: string, action: 'approve' | 'reject' = 'approve') {
    const request = await this.approvalRequest({ activityId, action });
    const stamp = await stamper.stamp(request.stampPayload);
    return this.vote(activityId, { action, customerApprovalStamp: stamp, turnkeyRequest: request.turnkeyRequest });
  }
}

/** `/v2/address-book/entries`. */
export class AddressBook extends Resource {
  async create(body: BodyOf<'AddressBookController_create'>) {
    return this.core.unwrap(await this.core.api.POST('/v2/address-book/entries', { body }));
  }
  list(query: QueryOf<'AddressBookController_list'> = {}) {
    return pages((cursor) => this.core.api.GET('/v2/address-book/entries', { params: { query: { ...query, cursor } } }).then((r) => this.core.unwrap(r)));
  }
  async remove(entryId: string) {
    return this.core.unwrap(await this.core.api.DELETE('/v2/address-book/entries/{entryId}', { params: { path: { entryId } } }));
  }
}

/** `/v2/activity`: the organization's deposits, withdrawals and rebalances, newest first. */
export class Activity extends Resource {
  list(query: QueryOf<'ActivityController_list'> = {}) {
    return pages((cursor) => this.core.api.GET('/v2/activity', { params: { query: { ...query, cursor } } }).then((r) => this.core.unwrap(r)));
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
  create(body: Create): Promise<CreatedWebhookRegistration> {
    return this.core.call('POST', this.path, { body });
  }
  list(query: { limit?: number } = {}): PageIterator<WebhookRegistration> {
    return pages((cursor) => this.core.call<Page<WebhookRegistration>>('GET', this.path, { query: { ...query, cursor } }));
  }
  get(id: string): Promise<WebhookRegistration> {
    return this.core.call('GET', `${this.path}/${encodeURIComponent(id)}`);
  }
  update(id: string, body: Update): Promise<WebhookRegistration> {
    return this.core.call('PATCH', `${this.path}/${encodeURIComponent(id)}`, { body });
  }
  remove(id: string): Promise<Schemas['DeletedWebhookDto']> {
    return this.core.call('DELETE', `${this.path}/${encodeURIComponent(id)}`);
  }
  /** The delivery history of one registration, or of the whole family without `id`. */
  events(id?: string, query: { limit?: number } = {}): PageIterator<WebhookDeliveryEvent> {
    const path = id === undefined ? `${this.path}/events` : `${this.path}/${encodeURIComponent(id)}/events`;
    return pages((cursor) => this.core.call<Page<WebhookDeliveryEvent>>('GET', path, { query: { ...query, cursor } }));
  }
  retry(id: string, eventId: string): Promise<WebhookDeliveryEvent> {
    return this.core.call('POST', `${this.path}/${encodeURIComponent(id)}/events/${encodeURIComponent(eventId)}/retry`);
  }
  /** Sends a signed `webhook.test` delivery. */
  test(id: string): Promise<WebhookDeliveryEvent> {
    return this.core.call('POST', `${this.path}/${encodeURIComponent(id)}/test`);
  }
}

/** gtokens: the catalogue, allowlist checks, and the gtoken webhook family. */
export class GVaults extends Resource {
  readonly webhooks: WebhookFamily<BodyOf<'GVaultWebhooksController_create'>, BodyOf<'GVaultWebhooksController_update'>>;
  constructor(core: ClientCore) {
    super(core);
    this.webhooks = new WebhookFamily(core, '/v2/gvaults/webhooks');
  }
  /** The whole catalogue (not paginated). */
  async yieldSources() {
    return this.core.unwrap(await this.core.api.GET('/v2/gvaults/yield-sources'));
  }
  async allowlist(gVaultId: string, address: string) {
    return this.core.unwrap(await this.core.api.GET('/v2/gvaults/{gVaultId}/allowlist/{address}', { params: { path: { gVaultId, address } } }));
  }
}

/** MicroVaults (sandbox preview). Writes carry an `Idempotency-Key`, generated when not given. */
export class MicroVaults extends Resource {
  async setStrategy(vaultId: string, body: BodyOf<'MicroVaultsController_updateStrategy'>, options: { idempotencyKey?: string } = {}) {
    const header = { 'Idempotency-Key': options.idempotencyKey ?? newIdempotencyKey() };
    return this.core.unwrap(await this.core.api.PUT('/v2/microvaults/vaults/{vaultId}/strategy', { params: { path: { vaultId }, header }, body }));
  }
  async setPause(vaultId: string, body: BodyOf<'MicroVaultsController_setPause'>, options: { idempotencyKey?: string } = {}) {
    const header = { 'Idempotency-Key': options.idempotencyKey ?? newIdempotencyKey() };
    return this.core.unwrap(await this.core.api.PUT('/v2/microvaults/vaults/{vaultId}/pause', { params: { path: { vaultId }, header }, body }));
  }
  async pauseStatus(vaultId: string) {
    return this.core.unwrap(await this.core.api.GET('/v2/microvaults/vaults/{vaultId}/pause-status', { params: { path: { vaultId } } }));
  }
  tasks(vaultId: string, query: QueryOf<'MicroVaultsController_listTasks'> = {}) {
    return pages((cursor) =>
      this.core.api.GET('/v2/microvaults/vaults/{vaultId}/tasks', { params: { path: { vaultId }, query: { ...query, cursor } } }).then((r) => this.core.unwrap(r)),
    );
  }
  async task(taskId: string) {
    return this.core.unwrap(await this.core.api.GET('/v2/microvaults/tasks/{taskId}', { params: { path: { taskId } } }));
  }
}

/** `/v2/api-keys` (owners and admins). */
export class ApiKeys extends Resource {
  /** The answer's `key` is shown only here. */
  async create(body: BodyOf<'ApiKeysController_create'>) {
    return this.core.unwrap(await this.core.api.POST('/v2/api-keys', { body }));
  }
  list(query: QueryOf<'ApiKeysController_list'> = {}) {
    return pages((cursor) => this.core.api.GET('/v2/api-keys', { params: { query: { ...query, cursor } } }).then((r) => this.core.unwrap(r)));
  }
  async get(id: string) {
    return this.core.unwrap(await this.core.api.GET('/v2/api-keys/{id}', { params: { path: { id } } }));
  }
  async revoke(id: string) {
    return this.core.unwrap(await this.core.api.DELETE('/v2/api-keys/{id}', { params: { path: { id } } }));
  }
  async roll(id: string, body: BodyOf<'ApiKeysController_roll'> = { expiresInSeconds: 0 }) {
    return this.core.unwrap(await this.core.api.POST('/v2/api-keys/{id}/roll', { params: { path: { id } }, body }));
  }
}

export class System extends Resource {
  async ping() {
    return this.core.unwrap(await this.core.api.GET('/v2/system/ping'));
  }
}

