import { jetstreamManager } from '@nats-io/jetstream';
import { type ConnectionOptions, connect } from '@nats-io/transport-node';
import { Redis } from 'ioredis';
import pg from 'pg';

export interface DependencyProblem {
  readonly name: string;
  readonly detail: string;
  readonly fix: string;
}

const PG_START = 'pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start';
const NATS_START =
  'start-stop-daemon --start --oknodo --background --exec /usr/sbin/nats-server -- -a 127.0.0.1 -p 4222 -js -sd /var/lib/nats-server';
const REDIS_START = 'redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no';

async function checkPostgres(databaseUrl: string): Promise<DependencyProblem | undefined> {
  const admin = new URL(databaseUrl);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString(), connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (error) {
    return {
      name: 'PostgreSQL',
      detail: `${admin.host}: ${(error as Error).message}`,
      fix: `start it, e.g. \`${PG_START}\` (Debian), or point DATABASE_URL at a running server`,
    };
  } finally {
    await client.end().catch(() => undefined);
  }
}

type NatsAuth = Pick<ConnectionOptions, 'user' | 'pass' | 'inboxPrefix'>;

async function checkNats(natsUrl: string, auth?: NatsAuth): Promise<DependencyProblem | undefined> {
  let connection;
  try {
    connection = await connect({ servers: natsUrl.split(','), timeout: 3_000, ...auth });
  } catch (error) {
    return {
      name: 'NATS',
      detail: `${natsUrl}: ${(error as Error).message}`,
      fix: `start it with JetStream, e.g. \`${NATS_START}\`, or set NATS_URL`,
    };
  }
  try {
    await (await jetstreamManager(connection)).getAccountInfo();
    return undefined;
  } catch (error) {
    return {
      name: 'NATS JetStream',
      detail: `${natsUrl}: ${(error as Error).message}`,
      fix: 'restart nats-server with the -js flag (JetStream carries the domain events)',
    };
  } finally {
    await connection.close();
  }
}

async function checkRedis(redisUrl: string): Promise<DependencyProblem | undefined> {
  const redis = new Redis(redisUrl, { lazyConnect: true, connectTimeout: 3_000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
    return undefined;
  } catch (error) {
    return {
      name: 'Redis',
      detail: `${redisUrl}: ${(error as Error).message}`,
      fix: `start it, e.g. \`${REDIS_START}\`, or set REDIS_URL`,
    };
  } finally {
    redis.disconnect();
  }
}

/** Asks PostgreSQL, NATS (with JetStream) and Redis at once; lists what does not answer. */
export async function checkDependencies(urls: {
  database: string;
  nats: string;
  /** Credentials on a server of the shipped configuration (a user allowed the JetStream API). */
  natsAuth?: NatsAuth;
  redis: string;
}): Promise<DependencyProblem[]> {
  const results = await Promise.all([checkPostgres(urls.database), checkNats(urls.nats, urls.natsAuth), checkRedis(urls.redis)]);
  return results.filter((problem): problem is DependencyProblem => problem !== undefined);
}
