import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isOrgId, ORG_ID_FORMAT, type ResponseOf, type Subject, type WireRequestOf } from '@service/contracts';
import { connectNats, NatsRequester, SubjectClient } from '@service/nats';
import { commonConfigSpec, loadConfig, natsClientAuthOf } from '@service/service-runtime';

/** Deploying waits for confirmations, so operator requests get far longer than API requests. */
const OPERATOR_TIMEOUT_MS = 180_000;

/** Who sends an operator request: the CLI, as an owner of `orgId`. */
export function operatorContext(orgId: string): WireRequestOf<Subject>['ctx'] {
  if (!isOrgId(orgId)) throw new Error(`--org must be an organization id (${ORG_ID_FORMAT}), got ${JSON.stringify(orgId)}`);
  return { orgId, principalId: 'operator-cli', role: 'owner', requestId: `admin-${Date.now()}` };
}

/**
 * Where the CLI connects and as whom: NATS_URL and the NATS_* credentials of its own user, `admin`
 * by default, the only user k8s/base/nats/nats-server.conf lets request operator subjects
 * (NATS_PASSWORD or NATS_PASSWORD_FILE, or NATS_CREDS; see @service/service-runtime's config);
 * `ops` for the stream commands, the only user that may change the event stream.
 */
export function operatorNatsFromEnv(env: Record<string, string | undefined> = process.env, user: 'admin' | 'ops' = 'admin'): OperatorNats {
  const given = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const config = loadConfig(commonConfigSpec, { ...devStackEnv(env, user), ...given });
  return { url: config.NATS_URL, auth: natsClientAuthOf(config, user) };
}

/**
 * Without NATS_URL nor credentials: the NATS server `npm start` runs (127.0.0.1:DEV_NATS_PORT,
 * default 4223) with the user's password from `.dev/nats/passwords.json`, when that file exists.
 */
function devStackEnv(env: Record<string, string | undefined>, user: 'admin' | 'ops'): Record<string, string> {
  const given = ['NATS_URL', 'NATS_PASSWORD', 'NATS_PASSWORD_FILE', 'NATS_CREDS'].some((name) => env[name]);
  const file = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../.dev/nats/passwords.json');
  if (given || !existsSync(file)) return {};
  const password = (JSON.parse(readFileSync(file, 'utf8')) as Partial<Record<'admin' | 'ops', string>>)[user];
  return password ? { NATS_URL: `nats://127.0.0.1:${env['DEV_NATS_PORT'] ?? '4223'}`, NATS_PASSWORD: password } : {};
}

export interface OperatorNats {
  readonly url: string;
  readonly auth?: Parameters<typeof connectNats>[0]['auth'];
}

/** Sends one request to a service over NATS, typed by the contract, and closes the connection. */
export async function operatorRequest<S extends Subject>(
  nats: string | OperatorNats,
  subject: S,
  request: WireRequestOf<S>,
): Promise<ResponseOf<S>> {
  const { url, auth } = typeof nats === 'string' ? { url: nats, auth: undefined } : nats;
  const connection = await connectNats({ url, name: 'admin-cli', auth });
  try {
    return await new SubjectClient(new NatsRequester(connection, OPERATOR_TIMEOUT_MS)).request(subject, request);
  } finally {
    await connection.close();
  }
}
