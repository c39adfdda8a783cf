import { connect, type NatsConnection } from '@nats-io/transport-node';

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
}

/**
 * Connects for the life of a process: keeps reconnecting forever once connected, but fails at
 * once with a message that says what to do when the server cannot be reached at boot.
 */
export async function connectNats(options: NatsConnectOptions): Promise<NatsConnection> {
  try {
    return await connect({
      servers: options.url.split(',').map((server) => server.trim()),
      name: options.name,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 500,
      pingInterval: 10_000,
      noAsyncTraces: options.asyncTraces === false,
    });
  } catch (error) {
    throw new Error(
      `Cannot reach NATS at ${options.url} (${(error as Error).message}). Start it with JetStream enabled, ` +
        'for example: nats-server -a 127.0.0.1 -p 4222 -js',
    );
  }
}
