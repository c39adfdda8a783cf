// What the deployment descriptors must agree on with the apps, and helpers to read them.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import { fileURLToPath } from 'node:url';
import * as coreV1 from 'kubernetes-models/v1';
import * as appsV1 from 'kubernetes-models/apps/v1';
import * as autoscalingV2 from 'kubernetes-models/autoscaling/v2';
import * as batchV1 from 'kubernetes-models/batch/v1';
import * as networkingV1 from 'kubernetes-models/networking.k8s.io/v1';
import * as policyV1 from 'kubernetes-models/policy/v1';
import type { IConfigMap, IContainer, IEnvVar } from 'kubernetes-models/v1';
import type { IDeployment } from 'kubernetes-models/apps/v1';
import type { IJob } from 'kubernetes-models/batch/v1';
import { parseAllDocuments } from 'yaml';

export const workspaceRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export function readWorkspaceFile(relative: string): string {
  return readFileSync(path.join(workspaceRoot, relative), 'utf8');
}

export const GATEWAY = 'gateway';
export const SERVICES = [
  'wallet-service',
  'gvault-service',
  'microvault-service',
  'webhook-service',
  'activity-service',
  'identity-service',
  'risk-service',
] as const;
export const APPS = [GATEWAY, ...SERVICES] as const;
export type App = (typeof APPS)[number];

/** Apps that consume the event stream and scale on its backlog with KEDA instead of a CPU HPA. */
export const BACKLOG_APPS: readonly App[] = ['webhook-service', 'activity-service'];

/** A KEDA ScaledObject, as far as the tests read it. */
export interface ScaledObject extends KubeObject {
  spec: {
    scaleTargetRef: { apiVersion?: string; kind?: string; name: string };
    minReplicaCount?: number;
    maxReplicaCount?: number;
    triggers: { type: string; metricType?: string; metadata: Record<string, string> }[];
  };
}

/** Postgres schema owned by each service (DATABASE_SCHEMA). */
export const SCHEMA: Record<(typeof SERVICES)[number], string> = {
  'wallet-service': 'wallet',
  'gvault-service': 'gvault',
  'microvault-service': 'microvault',
  'webhook-service': 'webhook',
  'activity-service': 'activity',
  'identity-service': 'identity',
  'risk-service': 'risk',
};

export const GATEWAY_PORT = 3000;
export const HEALTH_PORT = 8080;

/** NATS_PASSWORD: each app's own NATS user (k8s/base/nats/nats-server.conf); production refuses to start without it. */
const COMMON_ENV = ['SERVICE_ENV', 'NATS_URL', 'NATS_PASSWORD', 'LOG_LEVEL'];
const SERVICE_ENV = [...COMMON_ENV, 'DATABASE_URL', 'DATABASE_SCHEMA', 'HEALTH_PORT'];

/** Environment each app validates at boot. */
export const REQUIRED_ENV: Record<App, string[]> = {
  gateway: [
    ...COMMON_ENV,
    'PORT',
    'HEALTH_PORT',
    'REDIS_URL',
    'AUTH_ISSUER',
    'AUTH_AUDIENCE',
    'RATE_LIMIT_READ_PER_MINUTE',
    'RATE_LIMIT_WRITE_PER_MINUTE',
    'NATS_REQUEST_TIMEOUT_MS',
    'IDENTITY_KEY_PEPPER',
  ],
  'wallet-service': SERVICE_ENV,
  'gvault-service': [...SERVICE_ENV, 'CHAIN_RPC_URL_ETHEREUM', 'CHAIN_RPC_URL_ETHEREUM_SEPOLIA', 'CHAIN_CONFIRMATIONS'],
  'microvault-service': [...SERVICE_ENV, 'SEPOLIA_RPC_URL', 'MICROVAULT_OPERATOR_KEY', 'CHAIN_CONFIRMATIONS'],
  'webhook-service': [...SERVICE_ENV, 'WEBHOOK_SECRET_ENCRYPTION_KEY', 'WEBHOOK_PRIVATE_HOST_ALLOWLIST'],
  'activity-service': SERVICE_ENV,
  'identity-service': [...SERVICE_ENV, 'IDENTITY_KEY_PEPPER'],
  'risk-service': SERVICE_ENV,
};

/** At least one of each group must be present. */
export const ONE_OF_ENV: Partial<Record<App, string[][]>> = {
  gateway: [['AUTH_PUBLIC_KEY', 'AUTH_JWKS_URL']],
};

/** Never a plain value in Kubernetes: these come from Secrets. */
export const SECRET_ENV = [
  'DATABASE_URL',
  'WEBHOOK_SECRET_ENCRYPTION_KEY',
  'MICROVAULT_OPERATOR_KEY',
  'CHAIN_RPC_URL_ETHEREUM',
  'CHAIN_RPC_URL_ETHEREUM_SEPOLIA',
  'IDENTITY_KEY_PEPPER',
  'NATS_PASSWORD',
];

export const OVERLAYS = {
  sandbox: { dir: 'k8s/overlays/sandbox', namespace: 'service-sandbox', serviceEnv: 'sandbox' },
  production: { dir: 'k8s/overlays/production', namespace: 'service-production', serviceEnv: 'production' },
} as const;
export type Overlay = keyof typeof OVERLAYS;

// ---------------------------------------------------------------------------------------------
// Kubernetes objects

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [field: string]: unknown;
}

interface ModelClass {
  readonly apiVersion: string;
  readonly kind: string;
  new (data: object): { validate(): void };
}

function isModelClass(value: unknown): value is ModelClass {
  return (
    typeof value === 'function' &&
    typeof (value as Partial<ModelClass>).apiVersion === 'string' &&
    typeof (value as Partial<ModelClass>).kind === 'string'
  );
}

/** apiVersion/kind -> kubernetes-models class, for the API groups the manifests may use. */
const MODELS = new Map<string, ModelClass>();
for (const group of [coreV1, appsV1, autoscalingV2, batchV1, networkingV1, policyV1]) {
  for (const value of Object.values(group)) {
    if (isModelClass(value)) MODELS.set(`${value.apiVersion}/${value.kind}`, value);
  }
}

/**
 * Custom resources kubernetes-models has no types for (KEDA, the Prometheus Operator), validated
 * against JSON schemas kept in `crd-schemas/` (subsets of the CRDs' openAPIV3Schema, named
 * `<group>_<version>_<kind>.json`) with ajv.
 */
const ajv = new Ajv({ allErrors: true });
const CRD_SCHEMAS = new Map<string, Ajv.ValidateFunction>();
for (const file of readdirSync(path.join(workspaceRoot, 'tools/manifests/src/crd-schemas'))) {
  const [group, version, kind] = file.replace(/\.json$/, '').split('_');
  const schema: unknown = JSON.parse(readWorkspaceFile(`tools/manifests/src/crd-schemas/${file}`));
  CRD_SCHEMAS.set(`${group}/${version}/${kind}`, ajv.compile(schema as object));
}

/** The API versions and kinds the custom-resource schemas cover. */
export const CUSTOM_RESOURCES = [...CRD_SCHEMAS.keys()];

/** Validation errors of one object, or a complaint that its kind is unknown. */
export function validationErrors(object: KubeObject): string[] {
  const id = `${object.kind}/${object.metadata?.name}`;
  const custom = CRD_SCHEMAS.get(`${object.apiVersion}/${object.kind}`);
  if (custom) {
    if (custom(object)) return [];
    return (custom.errors ?? []).map(
      (error) => `${id}: ${error.dataPath || '/'} ${error.message ?? 'is invalid'} ${JSON.stringify(error.params)}`,
    );
  }
  const Model = MODELS.get(`${object.apiVersion}/${object.kind}`);
  if (!Model) return [`${id}: unknown apiVersion/kind ${object.apiVersion} ${object.kind}`];
  try {
    new Model(object).validate();
    return [];
  } catch (error) {
    return [`${id}: ${(error as Error).message}`];
  }
}

export function parseYamlDocuments(text: string, source: string): KubeObject[] {
  return parseAllDocuments(text).flatMap((doc) => {
    if (doc.errors.length > 0) throw new Error(`${source}: ${doc.errors.map((e) => e.message).join('; ')}`);
    const value: unknown = doc.toJS();
    return value == null ? [] : [value as KubeObject];
  });
}

const rendered = new Map<Overlay, KubeObject[]>();

/** `kubectl kustomize <overlay>`, parsed; rendered once per overlay. */
export function render(overlay: Overlay): KubeObject[] {
  let objects = rendered.get(overlay);
  if (!objects) {
    const text = execFileSync('kubectl', ['kustomize', OVERLAYS[overlay].dir], {
      cwd: workspaceRoot,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 60_000,
    });
    objects = parseYamlDocuments(text, OVERLAYS[overlay].dir);
    rendered.set(overlay, objects);
  }
  return objects;
}

export function findAll<T>(objects: KubeObject[], kind: string): (T & KubeObject)[] {
  return objects.filter((o) => o.kind === kind) as (T & KubeObject)[];
}

export function findOne<T>(objects: KubeObject[], kind: string, name: string): T & KubeObject {
  const found = objects.filter((o) => o.kind === kind && o.metadata.name === name);
  if (found.length !== 1) throw new Error(`expected exactly one ${kind}/${name}, found ${found.length}`);
  return found[0] as T & KubeObject;
}

/** Where one environment variable of a container comes from. */
export type EnvSource =
  | { from: 'value'; value: string }
  | { from: 'configMap'; configMap: string; key: string; value: string | undefined }
  | { from: 'secret'; secret: string; key: string; optional: boolean }
  | { from: 'other' };

/**
 * The environment of a container as Kubernetes builds it: envFrom first (ConfigMaps looked up in
 * the rendered objects), then env entries overriding them.
 */
export function containerEnv(objects: KubeObject[], container: IContainer): Map<string, EnvSource> {
  const configMaps = new Map(findAll<IConfigMap>(objects, 'ConfigMap').map((c) => [c.metadata.name, c]));
  const env = new Map<string, EnvSource>();
  for (const source of container.envFrom ?? []) {
    if (!source.configMapRef?.name) throw new Error(`${container.name}: only configMapRef envFrom is resolvable`);
    const configMap = configMaps.get(source.configMapRef.name);
    if (!configMap) throw new Error(`${container.name}: ConfigMap ${source.configMapRef.name} is not rendered`);
    for (const [key, value] of Object.entries(configMap.data ?? {})) {
      env.set(`${source.prefix ?? ''}${key}`, { from: 'configMap', configMap: configMap.metadata.name, key, value });
    }
  }
  for (const variable of container.env ?? []) env.set(variable.name, envVarSource(configMaps, variable));
  return env;
}

function envVarSource(configMaps: Map<string, IConfigMap & KubeObject>, variable: IEnvVar): EnvSource {
  if (variable.value !== undefined) return { from: 'value', value: variable.value };
  const secret = variable.valueFrom?.secretKeyRef;
  if (secret?.name) return { from: 'secret', secret: secret.name, key: secret.key, optional: secret.optional === true };
  const ref = variable.valueFrom?.configMapKeyRef;
  if (ref?.name) return { from: 'configMap', configMap: ref.name, key: ref.key, value: configMaps.get(ref.name)?.data?.[ref.key] };
  return { from: 'other' };
}

/** Plain value of a variable (literal or ConfigMap), undefined for Secrets. */
export function plainValue(source: EnvSource | undefined): string | undefined {
  if (source?.from === 'value' || source?.from === 'configMap') return source.value;
  return undefined;
}

export function appContainer(deployment: IDeployment & KubeObject): IContainer {
  const containers = deployment.spec?.template.spec?.containers ?? [];
  const container = containers.find((c) => c.name === deployment.metadata.name);
  if (!container) throw new Error(`Deployment ${deployment.metadata.name} has no container of the same name`);
  return container;
}

export function jobContainer(job: IJob & KubeObject): IContainer {
  const containers = job.spec?.template.spec?.containers ?? [];
  if (containers.length !== 1) throw new Error(`Job ${job.metadata.name} must have exactly one container`);
  return containers[0];
}
