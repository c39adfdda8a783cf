import { describe, it, expect } from '@jest/globals';
import type { IContainer, IPodSpec, IProbe, IService } from 'kubernetes-models/v1';
import type { IDeployment } from 'kubernetes-models/apps/v1';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import type { IJob } from 'kubernetes-models/batch/v1';
import type { INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import type { IPodDisruptionBudget } from 'kubernetes-models/policy/v1';
import {
  APPS,
  GATEWAY,
  GATEWAY_PORT,
  HEALTH_PORT,
  ONE_OF_ENV,
  OVERLAYS,
  REQUIRED_ENV,
  SCHEMA,
  SECRET_ENV,
  SERVICES,
  appContainer,
  containerEnv,
  findAll,
  findOne,
  jobContainer,
  parseYamlDocuments,
  plainValue,
  readWorkspaceFile,
  render,
  validationErrors,
  BACKLOG_APPS,
  type App,
  type KubeObject,
  type ScaledObject,
  type Overlay,
} from './support.js';

const overlays = Object.keys(OVERLAYS) as Overlay[];

function deploymentOf(overlay: Overlay, app: App) {
  return findOne<IDeployment>(render(overlay), 'Deployment', app);
}

function podLabels(deployment: IDeployment): Record<string, string> {
  return deployment.spec?.template.metadata?.labels ?? {};
}

function selects(selector: Record<string, string> | undefined, labels: Record<string, string>): boolean {
  const entries = Object.entries(selector ?? {});
  return entries.length > 0 && entries.every(([key, value]) => labels[key] === value);
}

function port(container: IContainer, probe: IProbe | undefined): number | undefined {
  const target = probe?.httpGet?.port;
  if (typeof target === 'number') return target;
  return container.ports?.find((p) => p.name === target)?.containerPort;
}

function expectHardened(pod: IPodSpec, container: IContainer, id: string): void {
  expect({ id, runAsNonRoot: pod.securityContext?.runAsNonRoot }).toEqual({ id, runAsNonRoot: true });
  expect(pod.securityContext?.runAsUser).toBeGreaterThan(0);
  expect(pod.automountServiceAccountToken).toBe(false);
  const security = container.securityContext;
  expect({ id, security }).toMatchObject({
    id,
    security: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } },
  });
  expect(security?.privileged).not.toBe(true);
  expect(security?.runAsUser ?? 1).toBeGreaterThan(0);
  for (const kind of ['requests', 'limits'] as const) {
    expect({ id, kind, cpu: container.resources?.[kind]?.cpu !== undefined }).toEqual({ id, kind, cpu: true });
    expect({ id, kind, memory: container.resources?.[kind]?.memory !== undefined }).toEqual({ id, kind, memory: true });
  }
  // readOnlyRootFilesystem: /tmp is the only writable place.
  const tmp = container.volumeMounts?.find((m) => m.mountPath === '/tmp');
  expect(pod.volumes?.find((v) => v.name === tmp?.name)?.emptyDir).toBeDefined();
}

describe.each(overlays)('k8s overlay %s', (overlay) => {
  const { namespace, serviceEnv } = OVERLAYS[overlay];

  it('renders objects that all validate against the Kubernetes schemas', () => {
    const objects = render(overlay);
    expect(objects.length).toBeGreaterThan(0);
    expect(objects.flatMap(validationErrors)).toEqual([]);
  });

  it('puts every object in the overlay namespace and commits no Secret', () => {
    const objects = render(overlay);
    findOne(objects, 'Namespace', namespace);
    const misplaced = objects
      .filter((o) => o.kind !== 'Namespace' && o.metadata.namespace !== namespace)
      .map((o) => `${o.kind}/${o.metadata.name}`);
    expect(misplaced).toEqual([]);
    expect(findAll(objects, 'Secret')).toEqual([]);
  });

  it('labels every object as part of the platform', () => {
    const unlabelled = render(overlay)
      .filter((o) => o.metadata.labels?.['app.kubernetes.io/part-of'] !== 'service-platform')
      .map((o) => `${o.kind}/${o.metadata.name}`);
    expect(unlabelled).toEqual([]);
  });

  it.each(APPS)('%s has a Deployment, one autoscaler (a CPU HPA, or KEDA for a backlog consumer) and a PDB over its pods', (app) => {
    const objects = render(overlay);
    const deployment = deploymentOf(overlay, app);
    const labels = podLabels(deployment);
    expect(labels['app.kubernetes.io/name']).toBe(app);
    expect(selects(deployment.spec?.selector.matchLabels, labels)).toBe(true);
    // The autoscaler owns the replica count; a fixed count would fight it on every apply.
    expect(deployment.spec?.replicas).toBeUndefined();

    const target = { apiVersion: 'apps/v1', kind: 'Deployment', name: app };
    const hpas = findAll<IHorizontalPodAutoscaler>(objects, 'HorizontalPodAutoscaler').filter((h) => h.spec?.scaleTargetRef.name === app);
    const scaledObjects = findAll<ScaledObject>(objects, 'ScaledObject').filter((o) => o.spec.scaleTargetRef.name === app);
    if (BACKLOG_APPS.includes(app)) {
      // KEDA creates and drives its own HPA: one of ours on the same Deployment would fight it.
      expect(hpas).toEqual([]);
      expect(scaledObjects.map((o) => o.spec.scaleTargetRef)).toEqual([target]);
      return;
    }
    expect(scaledObjects).toEqual([]);
    const hpa = findOne<IHorizontalPodAutoscaler>(objects, 'HorizontalPodAutoscaler', app);
    expect(hpa.apiVersion).toBe('autoscaling/v2');
    expect(hpa.spec?.scaleTargetRef).toEqual(target);
    expect(hpa.spec?.metrics?.some((m) => m.type === 'Resource' && m.resource?.name === 'cpu')).toBe(true);
    expect(hpa.spec?.minReplicas).toBeGreaterThanOrEqual(1);
    expect(hpa.spec!.maxReplicas).toBeGreaterThanOrEqual(hpa.spec!.minReplicas!);
  });

  it.each(APPS)('%s has a PDB over its pods only', (app) => {
    const objects = render(overlay);
    const labels = podLabels(deploymentOf(overlay, app));
    const pdb = findOne<IPodDisruptionBudget>(objects, 'PodDisruptionBudget', app);
    expect(selects(pdb.spec?.selector?.matchLabels, labels)).toBe(true);
    // Must not also cover the migration Job's pods (a PDB cannot scale a Job).
    for (const job of findAll<IJob>(objects, 'Job')) {
      expect(selects(pdb.spec?.selector?.matchLabels, job.spec?.template.metadata?.labels ?? {})).toBe(false);
    }
  });

  it('exposes the gateway, and only the gateway, through a Service on its http port (beside NATS, for the apps)', () => {
    const objects = render(overlay);
    const services = findAll<IService>(objects, 'Service');
    expect(services.map((s) => s.metadata.name).sort()).toEqual([GATEWAY, 'nats']);
    const service = services.find((s) => s.metadata.name === GATEWAY)!;
    const gateway = deploymentOf(overlay, GATEWAY);
    expect(selects(service.spec?.selector, podLabels(gateway))).toBe(true);
    const container = appContainer(gateway);
    for (const servicePort of service.spec?.ports ?? []) {
      const target = servicePort.targetPort;
      const containerPort = typeof target === 'number' ? target : container.ports?.find((p) => p.name === target)?.containerPort;
      expect(containerPort).toBe(GATEWAY_PORT);
    }
  });

  it.each(APPS)('%s runs its build, probes /healthz and /readyz and shuts down gracefully', (app) => {
    const deployment = deploymentOf(overlay, app);
    const pod = deployment.spec!.template.spec!;
    const container = appContainer(deployment);
    expect(container.command).toEqual(['node', `apps/${app}/dist/main.js`]);
    expect(container.image).toMatch(new RegExp(`/${app}:[\\w][\\w.-]*$`));
    expect(container.image).not.toMatch(/:latest$/);

    // Every app, the gateway too, is probed on its health port (which also serves /metrics).
    const expectedPort = HEALTH_PORT;
    expect(container.readinessProbe?.httpGet?.path).toBe('/readyz');
    expect(container.livenessProbe?.httpGet?.path).toBe('/healthz');
    expect(port(container, container.readinessProbe)).toBe(expectedPort);
    expect(port(container, container.livenessProbe)).toBe(expectedPort);
    if (container.startupProbe) expect(container.startupProbe.httpGet?.path).toBe('/healthz');

    const env = containerEnv(render(overlay), container);
    expect(plainValue(env.get('HEALTH_PORT'))).toBe(String(HEALTH_PORT));
    if (app === GATEWAY) expect(plainValue(env.get('PORT'))).toBe(String(GATEWAY_PORT));

    const preStop = container.lifecycle?.preStop;
    const sleep = preStop?.exec?.command?.[0] === 'sleep' ? Number(preStop.exec.command[1]) : preStop?.sleep?.seconds;
    expect(sleep).toBeGreaterThan(0);
    // The grace period covers the preStop sleep plus time to finish in-flight work.
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(sleep! + 15);
    expectHardened(pod, container, `Deployment/${app}`);
  });

  it.each(APPS)('%s gets every variable it validates at boot', (app) => {
    const env = containerEnv(render(overlay), appContainer(deploymentOf(overlay, app)));
    const missing = REQUIRED_ENV[app].filter((name) => !env.has(name));
    expect(missing).toEqual([]);
    for (const group of ONE_OF_ENV[app] ?? []) {
      expect(group.filter((name) => env.has(name))).not.toEqual([]);
    }
    for (const [name, source] of env) {
      if (SECRET_ENV.includes(name)) expect({ name, from: source.from }).toEqual({ name, from: 'secret' });
      if (source.from === 'configMap') expect({ name, value: source.value }).toEqual({ name, value: expect.any(String) });
      expect({ name, from: source.from }).not.toEqual({ name, from: 'other' });
    }
    expect(plainValue(env.get('SERVICE_ENV'))).toBe(serviceEnv);
    if (app !== GATEWAY) expect(plainValue(env.get('DATABASE_SCHEMA'))).toBe(SCHEMA[app]);
  });

  it.each(SERVICES)('%s has a migration Job for its own schema, on its own image', (app) => {
    const objects = render(overlay);
    const job = findOne<IJob>(objects, 'Job', `${app}-migrate`);
    const container = jobContainer(job);
    expect(container.command).toEqual(['node', 'tools/migrate/dist/cli.js', 'deploy', '--app', app]);
    expect(container.image).toBe(appContainer(deploymentOf(overlay, app)).image);
    expect(job.spec?.template.spec?.restartPolicy).toBe('Never');
    expect(job.spec?.backoffLimit).toBeGreaterThanOrEqual(1);

    const env = containerEnv(objects, container);
    expect(env.get('DATABASE_URL')?.from).toBe('secret');
    expect(plainValue(env.get('DATABASE_SCHEMA'))).toBe(SCHEMA[app]);
    // Same database credentials as the service itself.
    const serviceEnv = containerEnv(objects, appContainer(deploymentOf(overlay, app)));
    expect(env.get('DATABASE_URL')).toEqual(serviceEnv.get('DATABASE_URL'));
    // Self-contained so it can be applied before the new ConfigMaps (see k8s/README.md).
    expect(container.envFrom ?? []).toEqual([]);
    expectHardened(job.spec!.template.spec!, container, `Job/${job.metadata.name}`);
  });

  it('references only Secrets and keys documented in the sandbox example', () => {
    const documented = new Map<string, Set<string>>();
    for (const secret of parseYamlDocuments(readWorkspaceFile('k8s/overlays/sandbox/secrets.example.yaml'), 'secrets.example.yaml')) {
      expect(validationErrors(secret)).toEqual([]);
      const data = { ...(secret['stringData'] as object), ...(secret['data'] as object) };
      documented.set(secret.metadata.name, new Set(Object.keys(data)));
    }
    const objects = render(overlay);
    const containers = [
      ...findAll<IDeployment>(objects, 'Deployment').map(appContainer),
      ...findAll<IJob>(objects, 'Job').map(jobContainer),
    ];
    const undocumented: string[] = [];
    for (const container of containers) {
      for (const source of containerEnv(objects, container).values()) {
        if (source.from === 'secret' && !documented.get(source.secret)?.has(source.key)) {
          undocumented.push(`${container.name}: ${source.secret}/${source.key}`);
        }
      }
    }
    expect(undocumented).toEqual([]);
  });
});

describe('k8s environment differences', () => {
  function gatewayEnv(overlay: Overlay) {
    return containerEnv(render(overlay), appContainer(deploymentOf(overlay, GATEWAY)));
  }
  function webhookEnv(overlay: Overlay) {
    return containerEnv(render(overlay), appContainer(deploymentOf(overlay, 'webhook-service')));
  }
  function minReplicas(overlay: Overlay, app: App) {
    if (BACKLOG_APPS.includes(app)) return findOne<ScaledObject>(render(overlay), 'ScaledObject', app).spec.minReplicaCount;
    return findOne<IHorizontalPodAutoscaler>(render(overlay), 'HorizontalPodAutoscaler', app).spec?.minReplicas;
  }

  it('production applies the production rate limits and forbids private webhook URLs', () => {
    const gateway = gatewayEnv('production');
    expect(plainValue(gateway.get('RATE_LIMIT_READ_PER_MINUTE'))).toBe('200');
    expect(plainValue(gateway.get('RATE_LIMIT_WRITE_PER_MINUTE'))).toBe('20');
    expect(plainValue(gateway.get('NATS_REQUEST_TIMEOUT_MS'))).toBe('3000');
    expect(plainValue(gateway.get('RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE'))).toBe('60');
    expect(plainValue(gateway.get('CLIENT_ADDRESS_HEADER'))).toBe('x-forwarded-for');
    expect(plainValue(webhookEnv('production').get('WEBHOOK_PRIVATE_HOST_ALLOWLIST'))).toBe('');
  });

  it('sandbox forbids private webhook URLs too: no host may be private', () => {
    expect(plainValue(webhookEnv('sandbox').get('WEBHOOK_PRIVATE_HOST_ALLOWLIST'))).toBe('');
  });

  it('production keeps at least two replicas of every app and more of the gateway', () => {
    for (const app of APPS) expect({ app, min: minReplicas('production', app)! >= 2 }).toEqual({ app, min: true });
    expect(minReplicas('production', GATEWAY)).toBeGreaterThan(minReplicas('sandbox', GATEWAY)!);
  });

  it('overlays pin image tags of their own', () => {
    const tags = (overlay: Overlay) =>
      findAll<IDeployment>(render(overlay), 'Deployment').map((d) => appContainer(d).image?.split(':').pop());
    for (const overlay of overlays) expect(tags(overlay).every((tag) => tag && tag !== 'latest')).toBe(true);
  });

  it('keeps base objects free of environment-specific values', () => {
    // SERVICE_ENV must come from an overlay: a base default could silently run production as sandbox.
    const base = readWorkspaceFile('k8s/base/kustomization.yaml');
    expect(base).not.toMatch(/SERVICE_ENV=/);
    // The NATS configuration names subjects (`wallet.sandbox.>`, an operator subject refused to the gateway), not environments.
    const objects: KubeObject[] = render('production').filter(
      (o) => !(o.kind === 'ConfigMap' && o.metadata.name.startsWith('nats-config')),
    );
    expect(objects.some((o) => JSON.stringify(o).includes('sandbox'))).toBe(false);
  });
});

describe('k8s network policies', () => {
  const objects = render('sandbox');
  const policies = findAll<INetworkPolicy>(objects, 'NetworkPolicy');
  const policy = (name: string) => findOne<INetworkPolicy>(objects, 'NetworkPolicy', name);
  /** The pod labels of each Deployment, and of each migration Job. */
  const deployments = findAll<IDeployment>(objects, 'Deployment').map((d) => podLabels(d));
  const migrationJobs = findAll<IJob>(objects, 'Job').map((job) => job.spec?.template.metadata?.labels ?? {});
  const appOf = (labels: Record<string, string>) => labels['app.kubernetes.io/name'] ?? '';

  /** Whether a label selector (matchLabels and `In` expressions) selects pods with these labels. */
  function matches(selector: NonNullable<INetworkPolicy['spec']>['podSelector'] | undefined, labels: Record<string, string>): boolean {
    if (!selector) return false;
    const byLabel = Object.entries(selector.matchLabels ?? {}).every(([key, value]) => labels[key] === value);
    const byExpression = (selector.matchExpressions ?? []).every((expression) => {
      if (expression.operator !== 'In') throw new Error(`selector operator ${expression.operator} is not evaluated here`);
      return (expression.values ?? []).includes(labels[expression.key] ?? '');
    });
    return byLabel && byExpression;
  }
  const ingressFrom = (name: string, labels: Record<string, string>) =>
    (policy(name).spec?.ingress ?? []).some((rule) => (rule.from ?? []).some((peer) => matches(peer.podSelector, labels)));
  const egressOf = (name: string, labels: Record<string, string>) => matches(policy(name).spec?.podSelector, labels);

  /** Egress to the internet: an ipBlock of every IPv4 address, less the closed ranges. */
  const internetPolicies = policies.filter((p) =>
    (p.spec?.egress ?? []).some((rule) => (rule.to ?? []).some((peer) => peer.ipBlock?.cidr === '0.0.0.0/0')),
  );
  const CLOSED_RANGES = [
    '0.0.0.0/8',
    '10.0.0.0/8',
    '100.64.0.0/10',
    '127.0.0.0/8',
    '169.254.0.0/16',
    '172.16.0.0/12',
    '192.0.0.0/24',
    '192.168.0.0/16',
    '198.18.0.0/15',
    '224.0.0.0/4',
    '240.0.0.0/4',
  ];

  /** The settings of an app's src/config.ts that make it call out: chain RPC endpoints, a JWKS endpoint. */
  const outboundSettingsOf = (app: string) => [
    ...new Set(readWorkspaceFile(`apps/${app}/src/config.ts`).match(/\b[A-Z][A-Z0-9_]*(?:RPC_URL|JWKS_URL)[A-Z0-9_]*\b/g) ?? []),
  ];

  it('covers every app that has a Deployment, and only those', () => {
    expect(deployments.map(appOf).sort()).toEqual([...APPS].sort());
  });

  it.each(APPS)('lets %s reach NATS, and NATS take its connections, and probes and metrics reach it', (app) => {
    const labels = podLabels(deploymentOf('sandbox', app));
    expect(ingressFrom('nats', labels)).toBe(true);
    expect(egressOf('apps-egress', labels)).toBe(true);
    expect(matches(policy('probes-and-metrics').spec?.podSelector, labels)).toBe(true);
  });

  it('lets every app with a migration Job, its Job too, reach PostgreSQL, and no other', () => {
    const migrated = new Set(migrationJobs.map(appOf));
    expect([...migrated].sort()).toEqual([...SERVICES].sort());
    for (const labels of [...deployments, ...migrationJobs]) {
      const app = appOf(labels);
      expect([app, egressOf('postgresql-egress', labels), ingressFrom('postgresql', labels)]).toEqual([
        app,
        migrated.has(app),
        migrated.has(app),
      ]);
    }
  });

  it.each(APPS)('lets %s reach the internet exactly when it has an outbound URL setting (or delivers webhooks)', (app) => {
    const labels = podLabels(deploymentOf('sandbox', app));
    const outbound = outboundSettingsOf(app);
    const reaching = internetPolicies.filter((p) => matches(p.spec?.podSelector, labels)).map((p) => p.metadata.name);
    expect({ app, outbound, internet: reaching.length > 0 }).toEqual({
      app,
      outbound,
      internet: outbound.length > 0 || app === 'webhook-service',
    });
  });

  it.each(internetPolicies.map((p) => [p.metadata.name, p] as const))(
    '%s keeps private, shared, loopback and reserved IPv4 ranges closed',
    (_name, p) => {
      for (const rule of p.spec?.egress ?? []) {
        for (const peer of rule.to ?? []) expect([...(peer.ipBlock?.except ?? [])].sort()).toEqual([...CLOSED_RANGES].sort());
      }
    },
  );

  it('names the eight apps in its header, as k8s/README.md does', () => {
    expect(APPS).toHaveLength(8);
    expect(readWorkspaceFile('k8s/base/network-policies.yaml')).toContain('the eight apps');
    expect(readWorkspaceFile('k8s/base/network-policies.yaml')).not.toMatch(/seven apps|six services/);
    expect(readWorkspaceFile('k8s/README.md')).toContain('eight apps');
    expect(readWorkspaceFile('k8s/README.md')).not.toMatch(/seven apps|six services/);
  });
});
