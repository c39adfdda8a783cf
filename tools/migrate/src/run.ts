import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { applyMigrations, createMigration, ensureDatabase, isMigrationError, shadowDatabaseFor } from '@service/migrator';
import { SERVICE_APPS, SERVICE_SCHEMAS, type ServiceApp, isServiceApp, migrationsDir, prismaDir } from './apps.js';

export const DEFAULT_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/service_dev';

const START_POSTGRES = 'pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start';

const USAGE = `Usage:
  npm run migrate                                          deploy every service's migrations
  npm run migrate -- deploy [--app <app>]                  deploy one service's (or every service's) migrations
  npm run migrate -- create --app <app> --name <snake_name>  write a migration for the change to <app>'s schema.prisma

Apps: ${SERVICE_APPS.join(', ')}
Environment: DATABASE_URL (default ${DEFAULT_DATABASE_URL});
             DATABASE_SCHEMA overrides the app's schema name, with --app only.`;

export interface MigrateContext {
  env: Record<string, string | undefined>;
  /** Workspace root: apps live in `<root>/apps/<app>/prisma`. */
  root: string;
  out(line: string): void;
  err(line: string): void;
}

class UsageError extends Error {}

/** Runs the migrate command line; resolves to the process exit code (0 ok, 1 failed, 2 misuse). */
export async function runMigrate(argv: string[], context: MigrateContext): Promise<number> {
  try {
    const { command, app, name, help } = parseCommand(argv);
    if (help) {
      context.out(USAGE);
      return 0;
    }
    if (command === 'create') await create(requireApp(app), name, context);
    else await deploy(app === undefined ? undefined : requireApp(app), context);
    return 0;
  } catch (error) {
    return report(error, context);
  }
}

function parseCommand(argv: string[]) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: { app: { type: 'string' }, name: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const [command = 'deploy', ...extra] = parsed.positionals;
  if (command !== 'deploy' && command !== 'create') throw new UsageError(`Unknown command "${command}".`);
  if (extra.length > 0) throw new UsageError(`Unexpected argument "${extra[0]}".`);
  if (command === 'deploy' && parsed.values.name !== undefined) throw new UsageError('--name is for create.');
  return { command, app: parsed.values.app, name: parsed.values.name, help: parsed.values.help === true };
}

function requireApp(app: string | undefined): ServiceApp {
  if (app === undefined) throw new UsageError('create needs --app <app>.');
  if (!isServiceApp(app)) throw new UsageError(`Unknown app "${app}".`);
  return app;
}

async function deploy(app: ServiceApp | undefined, { env, root, out }: MigrateContext): Promise<void> {
  const apps = app === undefined ? SERVICE_APPS.filter((a) => existsSync(migrationsDir(root, a))) : [app];
  if (app !== undefined && !existsSync(migrationsDir(root, app))) {
    throw new ExpectedFailure(
      `${path.relative(root, migrationsDir(root, app))} does not exist; write the first migration with: npm run migrate -- create --app ${app} --name init`,
    );
  }
  if (apps.length === 0) {
    out('No service has a prisma/migrations folder yet: nothing to deploy.');
    return;
  }
  const connectionString = env['DATABASE_URL'] || DEFAULT_DATABASE_URL;
  if (await ensureDatabase(connectionString)) out(`Created database ${new URL(connectionString).pathname.slice(1)}.`);
  for (const each of apps) {
    const schema = (app !== undefined && env['DATABASE_SCHEMA']) || SERVICE_SCHEMAS[each];
    const applied = await applyMigrations({
      connectionString,
      schema,
      migrationsDir: migrationsDir(root, each),
      log: (message) => out(`${each}: ${message}`),
    });
    const summary = applied.length === 0 ? 'nothing to apply' : `applied ${applied.length}`;
    out(`${each}: schema "${schema}" is up to date (${summary}).`);
  }
}

async function create(app: ServiceApp, name: string | undefined, { env, root, out }: MigrateContext): Promise<void> {
  if (name === undefined) throw new UsageError('create needs --name <snake_name>, e.g. --name add_wallet_label.');
  const dir = prismaDir(root, app);
  const file = await createMigration({
    schemaPath: path.join(dir, 'schema.prisma'),
    migrationsDir: migrationsDir(root, app),
    name,
    shadow: shadowDatabaseFor(env['DATABASE_URL'] || DEFAULT_DATABASE_URL),
  });
  if (file === null) {
    out(`${app}: schema.prisma matches its migrations; no migration written.`);
    return;
  }
  out(`${app}: wrote ${path.relative(root, file)}`);
  out(`Review it, then apply it with: npm run migrate -- deploy --app ${app}`);
}

/** A failure whose message is the whole story (no stack trace). */
class ExpectedFailure extends Error {}

function report(error: unknown, { env, err }: MigrateContext): number {
  if (error instanceof UsageError) {
    err(`migrate: ${error.message}\n\n${USAGE}`);
    return 2;
  }
  if (isMigrationError(error) || error instanceof ExpectedFailure) {
    err(`migrate: ${error.message}`);
    if (isMigrationError(error) && error.code === 'database_unreachable') {
      err(`If that is this machine's PostgreSQL, start it with:\n  ${START_POSTGRES}`);
    }
    return 1;
  }
  err(`migrate: failed: ${error instanceof Error ? error.message : String(error)}`);
  if (env['MIGRATE_DEBUG'] && error instanceof Error && error.stack) err(error.stack);
  return 1;
}
