/**
 * NATS subjects, `<service>.<resource>.<verb>`: one constant per subject, shared by the gateway
 * that sends and the service that answers. Each service answers in its own queue group, so
 * replicas share the load.
 */
export const SERVICES = ['wallet', 'gvault', 'microvault', 'webhook', 'activity'] as const;
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
    allocate: 'wallet.rebalances.allocate',
    allocatePreview: 'wallet.rebalances.preview',
    withdrawalsPreview: 'wallet.withdrawals.preview',
    withdrawalsCreate: 'wallet.withdrawals.create',
    withdrawalsList: 'wallet.withdrawals.list',
    withdrawalsGet: 'wallet.withdrawals.get',
    withdrawalsCancel: 'wallet.withdrawals.cancel',
    payoutsApprove: 'wallet.payouts.approve',
    addressBookCreate: 'wallet.address-book.create',
    addressBookList: 'wallet.address-book.list',
    addressBookDelete: 'wallet.address-book.delete',
    depositAddressesEnable: 'wallet.deposit-addresses.enable',
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
    deliveriesList: 'webhook.deliveries.list',
    deliveriesRetry: 'webhook.deliveries.retry',
  },
  activity: {
    health: healthSubjectOf('activity'),
    feedList: 'activity.feed.list',
  },
} as const satisfies Record<ServiceName, Record<string, string>>;
