import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { PrismaPg } from '@prisma/adapter-pg';
import { type IsolatedSchema, migratedSchema, newRunId, TEST_DATABASE_URL } from './infra.js';
import { type RecordedStatement, renderSqlFile, type SqlFileEntry, sqlFileDifference } from './sql-text.js';

/** What Prisma emits for a statement with `log: [{ emit: 'event', level: 'query' }]`. */
export interface PrismaQueryEvent {
  readonly query: string;
  readonly params: string;
  readonly duration: number;
  readonly target: string;
}

/** The part of a generated Prisma client the recorder uses. */
export interface QueryEventClient {
  $on(event: 'query', listener: (event: PrismaQueryEvent) => void): void;
  $disconnect(): Promise<void>;
}

/** What an app's generated `PrismaClient` is constructed with to be recorded. */
export interface RecordingClientOptions {
  readonly adapter: PrismaPg;
  readonly log: [{ emit: 'event'; level: 'query' }];
}

/**
 * A service's own Prisma client on a fresh schema of the test database with the service's
 * migrations applied, which records every statement Prisma sends (model API and raw alike, in the
 * order they run, `BEGIN` and `COMMIT` of a transaction too) from its query events. The schema's
 * name, random per run, is written as `schemaAs` (the service's schema in production, e.g.
 * `gvault`), so the recorded text is the same on every run.
 */
export class RecordingPrisma<C extends QueryEventClient> {
  private recorded: RecordedStatement[] = [];

  private constructor(
    /** The client to hand the repository (`new Repository(prisma.client as never)`). */
    readonly client: C,
    private readonly schema: IsolatedSchema,
    /** How the schema is written in the recorded text. */
    readonly schemaAs: string,
  ) {
    client.$on('query', (event) => this.recorded.push({ text: this.normalise(event.query), values: parseParams(event.params) }));
  }

  /**
   * Migrates a fresh schema for `app` (`apps/<app>/prisma/migrations`) and builds the client on it
   * with `create` (`(options) => new PrismaClient(options)`), over a pool like the service's own
   * (its search path is the schema, so raw statements land there too).
   */
  static async start<C extends QueryEventClient>(
    app: string,
    create: (options: RecordingClientOptions) => C,
    schemaAs = app.replace(/-service$/, '').replace(/-/g, '_'),
  ): Promise<RecordingPrisma<C>> {
    const schema = await migratedSchema(app, newRunId());
    try {
      // The pool a service's `createPool` (@service/sql) builds: its search path is the schema.
      const pool = { connectionString: TEST_DATABASE_URL, options: `-c search_path="${schema.schema}"`, max: 1 };
      const adapter = new PrismaPg(pool, { schema: schema.schema });
      const recording = new RecordingPrisma(
        create({
          adapter: recordingBegin(adapter, (statement) => recording.recorded.push(statement)),
          log: [{ emit: 'event', level: 'query' }],
        }),
        schema,
        schemaAs,
      );
      return recording;
    } catch (error) {
      await schema.drop();
      throw error;
    }
  }

  /** What `work` ran, as the entry of a queries file named `call` (the function and its inputs). */
  async entry(call: string, work: () => Promise<unknown>): Promise<SqlFileEntry> {
    await settle();
    this.take();
    await work();
    await settle();
    return { call, statements: this.take() };
  }

  /** The statements recorded since the last call, in the order they ran. */
  take(): RecordedStatement[] {
    const taken = this.recorded;
    this.recorded = [];
    return taken;
  }

  /** Disconnects the client and drops the schema. */
  async stop(): Promise<void> {
    try {
      await this.client.$disconnect();
    } finally {
      await this.schema.drop();
    }
  }

  /** The statement with the run's schema (a name of its own, `<schemaAs>_t<run id>`) written as `schemaAs`. */
  private normalise(text: string): string {
    return text.split(this.schema.schema).join(this.schemaAs);
  }
}

/**
 * The adapter factory with its adapters' `startTransaction` recording the statements the driver
 * adapter sends itself (`BEGIN`, and `SET TRANSACTION ISOLATION LEVEL` when one is asked for, as
 * `@prisma/adapter-pg` does): Prisma emits no query event for them, while the `COMMIT` or
 * `ROLLBACK` its transaction manager sends has one.
 */
function recordingBegin(factory: PrismaPg, record: (statement: RecordedStatement) => void): PrismaPg {
  const wrapAdapter = <A extends object>(adapter: A): A =>
    new Proxy(adapter, {
      get(target, key) {
        const value: unknown = Reflect.get(target, key, target);
        if (typeof value !== 'function') return value;
        const method = value as (...args: unknown[]) => unknown;
        if (key !== 'startTransaction') return method.bind(target);
        return (isolationLevel?: string) => {
          record({ text: 'BEGIN', values: [] });
          if (isolationLevel) record({ text: `SET TRANSACTION ISOLATION LEVEL ${isolationLevel}`, values: [] });
          return method.call(target, isolationLevel);
        };
      },
    });
  return new Proxy(factory, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      if (key !== 'connect') return method.bind(target);
      return async () => wrapAdapter((await method.call(target)) as object);
    },
  });
}

/** Prisma's `params` (a JSON array as text); the text itself when it is not JSON. */
function parseParams(params: string): unknown[] {
  try {
    const parsed: unknown = JSON.parse(params);
    return Array.isArray(parsed) ? parsed : [parsed];
  } catch {
    return [params];
  }
}

/** Lets query events emitted as a call settles reach the recorder. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/**
 * {@link renderSqlFile} for statements recorded by a {@link RecordingPrisma}: the same header and
 * entries, with a line saying the text is Prisma's and how the schema is written.
 */
export function renderPrismaSqlFile(module: string, writtenBy: string, schemaAs: string, entries: readonly SqlFileEntry[]): string {
  const lines = renderSqlFile(module, writtenBy, entries).split('\n');
  lines.splice(
    3,
    0,
    `-- Recorded from Prisma's query events on a migrated schema (model API and raw statements, in order; the schema as "${schemaAs}").`,
  );
  return lines.join('\n');
}

/**
 * `queriesFileDifferences` (./sql-text.ts) for a {@link RecordingPrisma}: for each module of `files`, its
 * entries rendered ({@link renderPrismaSqlFile}) against `<dir>/<module>.sql` (`UPDATE_SQL=1`
 * writes them), and no other `.sql` file in `dir`. Every difference found, or none.
 */
export async function prismaQueriesFileDifferences(
  dir: string,
  writtenBy: string,
  prisma: RecordingPrisma<QueryEventClient>,
  files: Readonly<Record<string, () => Promise<SqlFileEntry[]>>>,
): Promise<string[]> {
  const differences: string[] = [];
  for (const [module, entries] of Object.entries(files)) {
    const text = renderPrismaSqlFile(`${module}.ts`, writtenBy, prisma.schemaAs, await entries());
    const difference = sqlFileDifference(join(dir, `${module}.sql`), text);
    if (difference) differences.push(difference);
  }
  const stray = readdirSync(dir).filter((name) => name.endsWith('.sql') && !(name.slice(0, -'.sql'.length) in files));
  for (const name of stray)
    differences.push(`${relative(process.cwd(), join(dir, name))} is the file of no module the spec renders: delete it.`);
  return differences;
}
