import { type ConnectionOptions, connect, type NatsConnection } from '@nats-io/transport-node';

/**
 * Who a process is on the NATS server and how it reaches it: the connect options of its user
 * (name and password, or a creds file's authenticator), TLS, and the inbox prefix the server lets
 * that user alone subscribe to (`_INBOX_<user>` in k8s/base/nats/nats-server.conf). Every
 * connection of a process (the gateway's, a service's two, the operator CLI's) gets the same.
 */
export type NatsClientAuth = Pick<ConnectionOptions, 'user' | 'pass' | 'authenticator' | 'tls' | 'inboxPrefix'>;

/**
 * Where a connection opened by our code carries the inbox prefix it was opened with, for
 * `NatsRequester`'s replies. A registered symbol (`Symbol.for`), so the testing lib, whose
 * connections the specs of this lib use, sets it without importing this lib.
 */
export const INBOX_PREFIX = Symbol.for('@service/nats.inboxPrefix');

/** Records on `connection` the inbox prefix it was opened with ({@link INBOX_PREFIX}; none: the client's `_INBOX`); returns it. */
export function withInboxPrefix<C extends NatsConnection>(connection: C, inboxPrefix: string | undefined): C {
  if (inboxPrefix) Object.defineProperty(connection, INBOX_PREFIX, { value: inboxPrefix });
  return connection;
}

/** The inbox prefix recorded on `connection` by whoever opened it ({@link withInboxPrefix}), undefined for the client's default. */
export function inboxPrefixOf(connection: NatsConnection): string | undefined {
  return (connection as NatsConnection & { [INBOX_PREFIX]?: string })[INBOX_PREFIX];
}

export interface NatsConnectOptions {
  /** One or more comma-separated server URLs. */
  readonly url: string;
  /** Connection name shown by the server's monitoring. */
  readonly name: string;
  /**
   * Whether every request captures a stack trace when it starts, so that its error shows where it
   * was made (the client's default, true). That is two Error objects per request: a process that
   * forwards many requests and turns every failure into its own error turns it off.
   */
  readonly asyncTraces?: boolean;
  /**
   * Whether the messages published during one event-loop turn go out in one socket write (at the
   * end of the turn) instead of one write each (the client's default flushes in a microtask, so
   * a process answering many HTTP requests per turn writes once per request). See
   * {@link coalesceWrites}. Default false.
   */
  readonly coalesceWrites?: boolean;
  /** Credentials, TLS and inbox prefix (none: an anonymous plain connection, `_INBOX` replies). */
  readonly auth?: NatsClientAuth;
}

/**
 * Connects for the life of a process: keeps reconnecting forever once connected, but fails at
 * once with a message that says what to do when the server cannot be reached at boot.
 */
export async function connectNats(options: NatsConnectOptions): Promise<NatsConnection> {
  let connection: NatsConnection;
  try {
    connection = await connect({
      servers: options.url.split(',').map((server) => server.trim()),
      name: options.name,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 500,
      pingInterval: 10_000,
      noAsyncTraces: options.asyncTraces === false,
      ...options.auth,
    });
  } catch (error) {
    const message = (error as Error).message;
    if (/authoriz|authenticat|permission/i.test(message)) {
      const who = options.auth?.user
        ? `user "${options.auth.user}"`
        : options.auth?.authenticator
          ? 'the creds file'
          : 'an anonymous client';
      throw new Error(
        `NATS at ${options.url} refused ${who} (${message}): set NATS_USER and NATS_PASSWORD (or NATS_PASSWORD_FILE, or NATS_CREDS) ` +
          'to the credentials the server configuration (k8s/base/nats/nats-server.conf) has for this app',
      );
    }
    if (/certificate|tls|ssl/i.test(message)) {
      throw new Error(`TLS to NATS at ${options.url} failed (${message}): NATS_TLS_CA names the CA that signed the server's certificate`);
    }
    throw new Error(
      `Cannot reach NATS at ${options.url} (${message}). Start it with JetStream enabled, ` +
        'for example: nats-server -a 127.0.0.1 -p 4222 -js, or with the shipped configuration: k8s/base/nats/README.md',
    );
  }
  if (options.coalesceWrites) coalesceWrites(connection);
  return withInboxPrefix(connection, options.auth?.inboxPrefix);
}

/** The part of nats.js's connection internals that {@link coalesceWrites} relies on. */
interface ProtocolInternals {
  flushPending(): void;
  outbound: { size(): number };
  pendingLimit: number;
}

/**
 * Defers the client's flush of its outbound buffer from a microtask to the end of the event-loop
 * turn (`setImmediate`), unless the buffer has reached the client's own flush threshold: the
 * requests of one turn go out in one socket write instead of one each, and nats-server reads
 * fewer, larger segments. The added latency is at most one loop turn. Every route through a
 * service gains; what it buys on the NATS route is in tools/bench/README.md ("Internals of
 * dependencies").
 *
 * This patches the client's protocol handler (`connection.protocol`), which is not public API:
 * when its shape is not the one expected, nothing is changed and false is returned. nats.js is
 * pinned exactly (@nats-io/transport-node 3.4.0, which pins @nats-io/nats-core 3.4.0), and the nats
 * lib's tests check that publishes are coalesced, so an upgrade that changes the shape fails there.
 */
export function coalesceWrites(connection: NatsConnection): boolean {
  const protocol = (connection as unknown as { protocol?: Partial<ProtocolInternals> }).protocol;
  if (
    typeof protocol?.flushPending !== 'function' ||
    typeof protocol.outbound?.size !== 'function' ||
    typeof protocol.pendingLimit !== 'number'
  ) {
    return false;
  }
  const internals = protocol as ProtocolInternals;
  const flushNow = internals.flushPending.bind(internals);
  let scheduled = false;
  const flushAtEndOfTurn = () => {
    scheduled = false;
    flushNow();
  };
  internals.flushPending = () => {
    if (internals.outbound.size() >= internals.pendingLimit) {
      flushNow();
    } else if (!scheduled) {
      scheduled = true;
      setImmediate(flushAtEndOfTurn);
    }
  };
  return true;
}
