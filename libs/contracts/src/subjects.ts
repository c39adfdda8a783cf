/**
 * NATS subjects, `<service>.<resource>.<verb>`: one constant per subject, shared by the gateway
 * that sends and the service that answers. Each service answers in its own queue group, so
 * replicas share the load.
 */
export const SERVICES = ['wallet', 'gvault', 'microvault', 'webhook', 'activity', 'identity', 'risk'] as const;
export type ServiceName = (typeof SERVICES)[number];

/** Queue group of a service: every replica subscribes with it. */
export function queueGroupOf(service: ServiceName): string {
  return `${service}-service`;
}

/** Health subject each service answers; the gateway's /readyz asks every one of them. */
export function healthSubjectOf<N extends ServiceName>(service: N): `${N}.health.check` {
  return `${service}.health.check`;
}

export const SUBJECTS = {
  wallet: {
    health: healthSubjectOf('wallet'),
    yieldSourcesList: 'wallet.yield-sources.list',
    walletsCreate: 'wallet.wallets.create',
    walletsList: 'wallet.wallets.list',
    walletsGet: 'wallet.wallets.get',
    walletsUpdate: 'wallet.wallets.update',
    strategyUpdate: 'wallet.strategy.update',
    yieldGet: 'wallet.yield.get',
    depositsSimulate: 'wallet.deposits.simulate',
    depositsList: 'wallet.deposits.list',
    depositsGet: 'wallet.deposits.get',
    depositsLookup: 'wallet.deposits.lookup',
    allocate: 'wallet.rebalances.allocate',
    allocatePreview: 'wallet.rebalances.preview',
    withdrawalsPreview: 'wallet.withdrawals.preview',
    withdrawalsCreate: 'wallet.withdrawals.create',
    withdrawalsList: 'wallet.withdrawals.list',
    withdrawalsGet: 'wallet.withdrawals.get',
    withdrawalsCancel: 'wallet.withdrawals.cancel',
    payoutsRetry: 'wallet.payouts.retry',
    payoutsCancel: 'wallet.payouts.cancel',
    addressBookCreate: 'wallet.address-book.create',
    addressBookList: 'wallet.address-book.list',
    addressBookDelete: 'wallet.address-book.delete',
    depositAddressesEnable: 'wallet.deposit-addresses.enable',
    approversCreate: 'wallet.approvers.create',
    approversList: 'wallet.approvers.list',
    approversDelete: 'wallet.approvers.delete',
    approvalPolicyGet: 'wallet.approval-policy.get',
    approvalPolicyPut: 'wallet.approval-policy.put',
    approvalAuditList: 'wallet.approval-audit.list',
    turnkeyPending: 'wallet.turnkey.pending',
    turnkeyApprovalRequest: 'wallet.turnkey.approval-request',
    turnkeyVote: 'wallet.turnkey.vote',
    accountingPeriodSummary: 'wallet.accounting.period-summary',
    accountingActivity: 'wallet.accounting.activity',
    walletActivityList: 'wallet.activity.list',
    /** Operator subject (admin CLI), not routed by the gateway: the sandbox fails an organization's next payout retryably. */
    sandboxFailNextPayout: 'wallet.sandbox.fail-next-payout',
    /** Operator, sandbox with WALLET_CLOCK_CONTROL only: stops the replica's clock at an instant (tests), or lets it run. */
    sandboxPinClock: 'wallet.sandbox.pin-clock',
  },
  gvault: {
    health: healthSubjectOf('gvault'),
    yieldSourcesList: 'gvault.yield-sources.list',
    allowlistCheck: 'gvault.allowlist.check',
  },
  microvault: {
    health: healthSubjectOf('microvault'),
    strategyUpdate: 'microvault.strategy.update',
    pauseSet: 'microvault.pause.set',
    pauseStatusGet: 'microvault.pause-status.get',
    tasksGet: 'microvault.tasks.get',
    tasksList: 'microvault.tasks.list',
    /** Operator subjects (admin CLI), not routed by the gateway. */
    organizationsEnable: 'microvault.organizations.enable',
    vaultsCreate: 'microvault.vaults.create',
  },
  webhook: {
    health: healthSubjectOf('webhook'),
    registrationsCreate: 'webhook.registrations.create',
    registrationsList: 'webhook.registrations.list',
    registrationsGet: 'webhook.registrations.get',
    registrationsUpdate: 'webhook.registrations.update',
    registrationsDelete: 'webhook.registrations.delete',
    registrationsTest: 'webhook.registrations.test',
    /** A new signing secret; the old one keeps signing beside it for the overlap asked. */
    registrationsRotateSecret: 'webhook.registrations.rotate-secret',
    deliveriesList: 'webhook.deliveries.list',
    deliveriesRetry: 'webhook.deliveries.retry',
  },
  activity: {
    health: healthSubjectOf('activity'),
    feedList: 'activity.feed.list',
  },
  identity: {
    health: healthSubjectOf('identity'),
    apiKeysCreate: 'identity.api-keys.create',
    apiKeysList: 'identity.api-keys.list',
    apiKeysGet: 'identity.api-keys.get',
    apiKeysRevoke: 'identity.api-keys.revoke',
    apiKeysRoll: 'identity.api-keys.roll',
    /** The gateway, on a cache miss: `{keyHash}` (never the key) -> the key's principal, or `unauthenticated`. */
    apiKeysAuthenticate: 'identity.api-keys.authenticate',
  },
  risk: {
    health: healthSubjectOf('risk'),
    rulesCreate: 'risk.rules.create',
    rulesList: 'risk.rules.list',
    rulesUpdate: 'risk.rules.update',
    rulesDelete: 'risk.rules.delete',
    alertsList: 'risk.alerts.list',
    actionsList: 'risk.actions.list',
    actionsUpdate: 'risk.actions.update',
    metricsList: 'risk.metrics.list',
    /** `POST /v2/sandbox/risk/metrics`: the gateway answers 404 in production; risk-service refuses it there too. */
    sandboxMetricsInject: 'risk.sandbox-metrics.inject',
  },
} as const satisfies Record<ServiceName, Record<string, string>>;

/**
 * Subjects only the operator CLI (tools/admin, NATS user `admin`) sends: the gateway routes none,
 * and k8s/base/nats/nats-server.conf denies them to its user (tools/manifests checks both, and
 * that the gateway may send nothing it does not route). `identity.api-keys.create` is not one:
 * the CLI sends it, and so does the gateway (`POST /v2/api-keys`).
 */
export const OPERATOR_SUBJECTS = [
  SUBJECTS.wallet.sandboxFailNextPayout,
  SUBJECTS.wallet.sandboxPinClock,
  SUBJECTS.microvault.organizationsEnable,
  SUBJECTS.microvault.vaultsCreate,
] as const;

/**
 * Messages without a reply (core NATS publish, not request/reply): the subject and its JSON
 * payload. Not in {@link SUBJECTS}, which lists request subjects only.
 */
export const BROADCASTS = {
  /**
   * identity-service -> every gateway replica (no queue group): a key stopped working (revoked,
   * or its expiry or roll grace period passed); each replica evicts it from its cache.
   */
  apiKeyRevoked: 'identity.api-keys.revoked',
  /**
   * gateway -> one identity-service replica (its queue group): a key was used. Sent at most once a
   * minute per key and replica, fire and forget; the service records `lastUsedAt`.
   */
  apiKeyUsed: 'identity.api-keys.used',
} as const;

export type Broadcast = (typeof BROADCASTS)[keyof typeof BROADCASTS];

/** The payload of each broadcast. */
export interface BroadcastPayloads {
  'identity.api-keys.revoked': { readonly keyId: string };
  'identity.api-keys.used': { readonly keyId: string };
}

export type BroadcastPayloadOf<B extends Broadcast> = BroadcastPayloads[B];
