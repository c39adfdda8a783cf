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
export function healthSubjectOf(service: ServiceName): string {
  return `${service}.health.check`;
}

export const SUBJECTS = {
  wallet: {
    health: healthSubjectOf('wallet'),
  },
  gvault: {
    health: healthSubjectOf('gvault'),
    yieldSourcesList: 'gvault.yield-sources.list',
  },
  microvault: {
    health: healthSubjectOf('microvault'),
  },
  webhook: {
    health: healthSubjectOf('webhook'),
  },
  activity: {
    health: healthSubjectOf('activity'),
  },
} as const satisfies Record<ServiceName, Record<string, string>>;
