// Throwaway databases and fixture copies for this lib's specs (excluded from the build).
import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export const SERVER_URL = process.env['TEST_DATABASE_URL'] ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
export const FIXTURES = fileURLToPath(new URL('../../fixtures/', import.meta.url));

export function uniqueName(prefix: string): string {
  return `${prefix}_${randomBytes(5).toString('hex')}`;
}

export async function sql<R extends pg.QueryResultRow = pg.QueryResultRow>(
  connectionString: string,
  text: string,
  params: unknown[] = [],
): Promise<R[]> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return (await client.query<R>(text, params)).rows;
  } finally {
    await client.end();
  }
}

/** A database of its own for one spec file; `drop` removes it whatever is still connected. */
export async function createSandboxDatabase(): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const name = uniqueName('migrator_spec');
  await sql(SERVER_URL, `CREATE DATABASE "${name}"`);
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return { url: url.href, name, drop: () => sql(SERVER_URL, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).then(() => undefined) };
}

/** A writable copy of a fixtures folder in a temporary directory, removed by `cleanup`. */
export async function copyFixture(name: string): Promise<{ dir: string; cleanup(): Promise<void> }> {
  const root = await mkdtemp(path.join(tmpdir(), 'migrator-'));
  const dir = path.join(root, name);
  await cp(path.join(FIXTURES, name), dir, { recursive: true });
  return { dir, cleanup: () => rm(root, { recursive: true, force: true }) };
}
