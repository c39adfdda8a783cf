import { credsAuthenticator } from '@nats-io/transport-node';
import type { NatsClientAuth } from '@service/nats';
import { ConfigError, type ConfigOf, type natsAuthConfigSpec } from './config.js';

/** The NATS variables of a process (`natsAuthConfigSpec`), with SERVICE_ENV and NATS_URL. */
export type NatsAuthConfig = ConfigOf<ReturnType<typeof natsAuthConfigSpec>> & {
  readonly SERVICE_ENV: 'sandbox' | 'production';
  readonly NATS_URL: string;
};

/**
 * The connect options of a process on NATS: its user (NATS_USER, or `defaultUser`, the app's own
 * user in k8s/base/nats/nats-server.conf) with NATS_PASSWORD or NATS_PASSWORD_FILE, or a creds
 * file (NATS_CREDS); TLS when the URL is `tls://`, NATS_TLS is true or a NATS_TLS_* file is set;
 * replies on `_INBOX_<user>` (NATS_INBOX_PREFIX), the only inbox the server lets the user read.
 *
 * Without credentials the connection is anonymous, which only a server without authorization
 * accepts (a developer's plain `nats-server -js`): SERVICE_ENV=production refuses that at boot,
 * as it refuses contradictory settings anywhere. Throws a {@link ConfigError} listing every problem.
 */
export function natsClientAuthOf(config: NatsAuthConfig, defaultUser: string): NatsClientAuth {
  const problems: string[] = [];
  const user = config.NATS_USER || defaultUser;
  const password = config.NATS_PASSWORD || config.NATS_PASSWORD_FILE;
  if (config.NATS_PASSWORD && config.NATS_PASSWORD_FILE) problems.push('NATS_PASSWORD and NATS_PASSWORD_FILE are both set: set one');
  if (password && config.NATS_CREDS)
    problems.push('NATS_CREDS and a NATS password are both set: a creds file replaces the user and password');
  if (!password && !config.NATS_CREDS && config.SERVICE_ENV === 'production') {
    problems.push(
      `NATS credentials are required when SERVICE_ENV=production: set NATS_PASSWORD or NATS_PASSWORD_FILE (user "${user}"), or NATS_CREDS`,
    );
  }
  if (Boolean(config.NATS_TLS_CERT) !== Boolean(config.NATS_TLS_KEY))
    problems.push('NATS_TLS_CERT and NATS_TLS_KEY go together: set both or neither');
  if (problems.length > 0) throw new ConfigError(problems);

  const wantsTls =
    config.NATS_TLS ||
    Boolean(config.NATS_TLS_CA || config.NATS_TLS_CERT) ||
    config.NATS_URL.split(',').some((url) => url.trim().startsWith('tls:'));
  const tls = wantsTls
    ? {
        ...(config.NATS_TLS_CA ? { ca: config.NATS_TLS_CA } : {}),
        ...(config.NATS_TLS_CERT ? { cert: config.NATS_TLS_CERT, key: config.NATS_TLS_KEY } : {}),
      }
    : undefined;
  const inboxPrefix = config.NATS_INBOX_PREFIX || `_INBOX_${user}`;
  if (config.NATS_CREDS) {
    return { authenticator: credsAuthenticator(new TextEncoder().encode(config.NATS_CREDS)), inboxPrefix, ...(tls ? { tls } : {}) };
  }
  return { ...(password ? { user, pass: password } : {}), inboxPrefix, ...(tls ? { tls } : {}) };
}
