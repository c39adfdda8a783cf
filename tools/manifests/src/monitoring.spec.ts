import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { IConfigMap } from 'kubernetes-models/v1';
import type { IDeployment } from 'kubernetes-models/apps/v1';
import {
  APPS,
  BACKLOG_APPS,
  HEALTH_PORT,
  OVERLAYS,
  appContainer,
  findOne,
  readWorkspaceFile,
  render,
  validationErrors,
  workspaceRoot,
  type KubeObject,
  type Overlay,
  type ScaledObject,
} from './support.js';

const overlays = Object.keys(OVERLAYS) as Overlay[];

interface PodMonitor extends KubeObject {
  spec: { selector: { matchLabels: Record<string, string> }; podMetricsEndpoints: { port: string; path: string }[] };
}
interface PrometheusRule extends KubeObject {
  spec: { groups: { name: string; rules: { alert?: string; expr: string }[] }[] };
}

/** Every TypeScript source of the apps and libs, once. */
const sources = (() => {
  const texts: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (name === 'node_modules' || name === 'dist' || name === 'generated') continue;
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith('.ts') && !name.endsWith('.spec.ts')) texts.push(readFileSync(full, 'utf8'));
    }
  };
  for (const root of ['apps', 'libs']) walk(path.join(workspaceRoot, root));
  return texts.join('\n');
})();

/** Our metric names a PromQL text uses (histogram series by their base name). */
function metricsIn(promql: string): string[] {
  const names = promql.match(/\b(?:http|nats|gateway|outbox|jetstream|webhook)_[a-z_]+\b/g) ?? [];
  return [...new Set(names.map((name) => name.replace(/_(bucket|sum|count)$/, '')))];
}

describe.each(overlays)('monitoring and autoscaling in %s', (overlay) => {
  it('validates the custom resources against their CRD schemas', () => {
    const custom = render(overlay).filter((o) => ['ScaledObject', 'PodMonitor', 'PrometheusRule'].includes(o.kind));
    expect(custom.length).toBeGreaterThan(0);
    expect(custom.flatMap(validationErrors)).toEqual([]);
  });

  it.each(APPS)('%s is scraped: prometheus.io annotations and a PodMonitor on its metrics port', (app) => {
    const objects = render(overlay);
    const deployment = findOne<IDeployment>(objects, 'Deployment', app);
    // The gateway's public port serves no /metrics: every app is scraped on its health port.
    const port = HEALTH_PORT;
    expect(deployment.spec?.template.metadata?.annotations).toMatchObject({
      'prometheus.io/scrape': 'true',
      'prometheus.io/port': String(port),
      'prometheus.io/path': '/metrics',
    });
    const monitor = findOne<PodMonitor>(objects, 'PodMonitor', app);
    const labels = deployment.spec?.template.metadata?.labels ?? {};
    expect(Object.entries(monitor.spec.selector.matchLabels).every(([key, value]) => labels[key] === value)).toBe(true);
    const [endpoint] = monitor.spec.podMetricsEndpoints;
    expect(endpoint?.path).toBe('/metrics');
    expect(appContainer(deployment).ports?.find((p) => p.name === endpoint?.port)?.containerPort).toBe(port);
  });

  it('alerts on 5xx ratio, p99 latency, outbox lag, webhook backlog, consumer pending, refused events and unready pods, with metrics the apps export', () => {
    const rule = findOne<PrometheusRule>(render(overlay), 'PrometheusRule', 'service-platform');
    const rules = rule.spec.groups.flatMap((group) => group.rules);
    expect(rules.map((r) => r.alert).sort()).toEqual(
      [
        'DomainEventsRefused',
        'GatewayHigh5xxRatio',
        'GatewayHighP99Latency',
        'JetStreamConsumerPendingGrowing',
        'OutboxPublishLagHigh',
        'PodsNotReady',
        'WebhookBacklogGrowing',
      ].sort(),
    );
    for (const name of rules.flatMap((r) => metricsIn(r.expr)))
      expect({ name, declared: sources.includes(`'${name}'`) }).toEqual({ name, declared: true });
  });

  it('ships the Grafana dashboard, whose queries use metrics the apps export', () => {
    const map = findOne<IConfigMap>(render(overlay), 'ConfigMap', 'grafana-dashboard-service-platform');
    expect(map.metadata?.labels?.['grafana_dashboard']).toBe('1');
    const dashboard = JSON.parse(map.data?.['service-platform.json'] ?? '{}') as { panels: { targets?: { expr: string }[] }[] };
    const exprs = dashboard.panels.flatMap((panel) => panel.targets ?? []).map((target) => target.expr);
    expect(exprs.length).toBeGreaterThan(10);
    const used = [...new Set(exprs.flatMap(metricsIn))];
    for (const name of [
      'http_requests_total',
      'http_request_duration_seconds',
      'outbox_events_waiting',
      'outbox_publish_lag_seconds',
      'webhook_deliveries_due',
      'webhook_delivery_latency_seconds',
    ]) {
      expect(used).toContain(name);
    }
    for (const name of used) expect({ name, declared: sources.includes(`'${name}'`) }).toEqual({ name, declared: true });
  });

  it.each(BACKLOG_APPS)('%s scales with KEDA on its durable consumer pending count (and CPU)', (app) => {
    const scaled = findOne<ScaledObject>(render(overlay), 'ScaledObject', app);
    const jetstream = scaled.spec.triggers.find((t) => t.type === 'nats-jetstream');
    // The stream the services use by default and the durable name the app consumes with.
    expect(jetstream?.metadata['stream']).toBe('DOMAIN_EVENTS');
    expect(readWorkspaceFile('libs/service-runtime/src/config.ts')).toContain(`default: '${jetstream?.metadata['stream']}'`);
    expect(sources).toContain(`_DURABLE = '${jetstream?.metadata['consumer']}'`);
    expect(scaled.spec.triggers.some((t) => t.type === 'cpu')).toBe(true);
    expect(scaled.spec.minReplicaCount).toBeGreaterThanOrEqual(1);
    expect(scaled.spec.maxReplicaCount).toBeGreaterThanOrEqual(scaled.spec.minReplicaCount!);
  });

  it('scales the webhook dispatcher on the due-delivery backlog of its own namespace', () => {
    const scaled = findOne<ScaledObject>(render(overlay), 'ScaledObject', 'webhook-service');
    const prometheus = scaled.spec.triggers.find((t) => t.type === 'prometheus');
    expect(metricsIn(prometheus?.metadata['query'] ?? '')).toEqual(['webhook_deliveries_due']);
    expect(prometheus?.metadata['query']).toContain(`namespace="${OVERLAYS[overlay].namespace}"`);
  });
});

describe('CRD schema validation', () => {
  const scaledObject = (trigger: Record<string, unknown>): KubeObject => ({
    apiVersion: 'keda.sh/v1alpha1',
    kind: 'ScaledObject',
    metadata: { name: 'x' },
    spec: { scaleTargetRef: { name: 'x' }, triggers: [trigger] },
  });

  it('refuses a trigger without the metadata its scaler needs, an unknown field or an unknown kind', () => {
    expect(
      validationErrors(
        scaledObject({ type: 'nats-jetstream', metadata: { natsServerMonitoringEndpoint: 'nats:8222', stream: 's', lagThreshold: '5' } }),
      ),
    ).not.toEqual([]);
    expect(
      validationErrors(scaledObject({ type: 'prometheus', metadata: { serverAddress: 'http://p', query: 'up', threshold: 1 } })),
    ).not.toEqual([]);
    expect(validationErrors(scaledObject({ type: 'cpu', metricType: 'Utilization', metadata: { value: '70' }, extra: true }))).not.toEqual(
      [],
    );
    expect(validationErrors(scaledObject({ type: 'cpu', metricType: 'Utilization', metadata: { value: '70' } }))).toEqual([]);
    expect(validationErrors({ apiVersion: 'keda.sh/v1alpha1', kind: 'ScaledJob', metadata: { name: 'x' } })).not.toEqual([]);
  });
});
