// Prisma's schema engine compiled to WebAssembly, driven through @prisma/adapter-pg. The native
// engine `prisma migrate` downloads is unreachable here; this one ships on npm. Three quirks are
// handled below: the package's entry imports the .wasm as an ES module, which Node 20 cannot do, so
// it is instantiated by hand; the engine expects the error-capturing adapter that Prisma's client
// builds with `bindMigrationAwareSqlAdapterFactory`; and its catalog queries return Postgres's
// internal `"char"` columns, which the adapter refuses, so they are relabelled as text.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { PrismaPg } from '@prisma/adapter-pg';
import {
  bindMigrationAwareSqlAdapterFactory,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
} from '@prisma/driver-adapter-utils';
import type { SchemaEngine } from '@prisma/schema-engine-wasm';
import pg from 'pg';
import { MigrationError } from './errors.js';

export type { SchemaEngine } from '@prisma/schema-engine-wasm';

type EngineModule = typeof import('@prisma/schema-engine-wasm/schema_engine_bg');

/** The part of the WebAssembly global used here (the es2023 lib and @types/node do not declare it). */
interface WebAssemblyApi {
  instantiate(bytes: Uint8Array, imports: Record<string, unknown>): Promise<{ instance: { exports: Record<string, unknown> } }>;
}
const { WebAssembly: wasm } = globalThis as unknown as { WebAssembly: WebAssemblyApi };

let engineModule: Promise<EngineModule> | undefined;

/** Instantiates the engine's WebAssembly once per process. */
function loadEngineModule(): Promise<EngineModule> {
  engineModule ??= (async () => {
    const glue = await import('@prisma/schema-engine-wasm/schema_engine_bg');
    const gluePath = createRequire(import.meta.url).resolve('@prisma/schema-engine-wasm/schema_engine_bg');
    const bytes = await readFile(gluePath.replace(/\.js$/, '.wasm'));
    const { instance } = await wasm.instantiate(bytes, { './schema_engine_bg.js': glue });
    glue.__wbg_set_wasm(instance.exports);
    (instance.exports['__wbindgen_start'] as () => void)();
    return glue;
  })();
  engineModule.catch(() => (engineModule = undefined));
  return engineModule;
}

const PG_CHAR_OID = 18;
const PG_NAME_OID = 19;
const PG_TEXT_OID = 25;

interface FieldsResult {
  fields?: { dataTypeID: number }[];
}

function relabelInternalTypes<T>(result: T): T {
  for (const one of (Array.isArray(result) ? result : [result]) as FieldsResult[]) {
    for (const field of one?.fields ?? []) {
      if (field.dataTypeID === PG_CHAR_OID || field.dataTypeID === PG_NAME_OID) field.dataTypeID = PG_TEXT_OID;
    }
  }
  return result;
}

/** A pg client whose results report `"char"` and `name` columns as `text` (same wire format). */
class TextTypesClient extends pg.Client {}
const baseQuery = pg.Client.prototype.query as (...args: unknown[]) => unknown;
Object.defineProperty(TextTypesClient.prototype, 'query', {
  value: function query(this: pg.Client, ...args: unknown[]): unknown {
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === 'function') {
      args[last] = (error: unknown, result: unknown) => callback(error, error ? result : relabelInternalTypes(result));
      return baseQuery.apply(this, args);
    }
    const returned = baseQuery.apply(this, args);
    return returned instanceof Promise ? returned.then(relabelInternalTypes) : returned;
  },
});

/** A pool for the engine; `options` may set `search_path`, e.g. `-c search_path="wallet"`. */
export function enginePool(config: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool({ connectionTimeoutMillis: 10_000, ...config, Client: TextTypesClient });
  // Dropping the shadow database WITH (FORCE) terminates idle connections; that is expected.
  pool.on('error', () => undefined);
  return pool;
}

export interface ShadowDatabase {
  pool: pg.Pool;
  /** Ends the pool and drops the database; called when the engine disposes of the connection. */
  release(): Promise<void>;
}

export interface EngineConnections {
  /** The engine's main database; `schema` is the namespace it introspects and migrates. */
  main: { pool: pg.Pool; schema?: string };
  /** Creates a fresh shadow database; absent when the command needs none. */
  shadow?: () => Promise<ShadowDatabase>;
}

function adapterFactory(connections: EngineConnections): SqlMigrationAwareDriverAdapterFactory {
  const main = new PrismaPg(connections.main.pool, { schema: connections.main.schema });
  return {
    provider: main.provider,
    adapterName: main.adapterName,
    connect: () => main.connect(),
    async connectToShadowDb(): Promise<SqlDriverAdapter> {
      if (connections.shadow === undefined) throw new Error('This command was given no shadow database.');
      const shadow = await connections.shadow();
      const adapter = await new PrismaPg(shadow.pool).connect();
      const dispose = adapter.dispose.bind(adapter);
      adapter.dispose = async () => {
        await dispose();
        await shadow.release();
      };
      return adapter;
    },
  };
}

/**
 * Runs `use` with a schema engine over `schemaFiles` ([path, content] pairs) and `connections`,
 * freeing it afterwards. Engine errors become `engine_error` MigrationErrors without the Rust
 * span trace.
 */
export async function withSchemaEngine<T>(
  schemaFiles: [string, string][],
  connections: EngineConnections,
  use: (engine: SchemaEngine) => Promise<T>,
): Promise<T> {
  const module = await loadEngineModule();
  const factory = bindMigrationAwareSqlAdapterFactory(adapterFactory(connections));
  let engine: SchemaEngine | undefined;
  try {
    engine = await module.SchemaEngine.new({ datamodels: schemaFiles }, () => undefined, factory);
    return await use(engine);
  } catch (error) {
    throw engineError(error);
  } finally {
    engine?.free();
  }
}

function engineError(error: unknown): unknown {
  if (error instanceof MigrationError || !(error instanceof Error)) return error;
  const lines = error.message.split('\n');
  const traceStart = lines.findIndex((line) => /^\s+\d+: /.test(line));
  const message = lines
    .slice(0, traceStart === -1 ? undefined : traceStart)
    .join('\n')
    .trim();
  return new MigrationError('engine_error', `Prisma's schema engine: ${message}`, { cause: error });
}
