// Entry point: `npm run migrate -- <command>` (tsx) or `node tools/migrate/dist/cli.js <command>`.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runMigrate } from './run.js';

// src/ and dist/ both sit two levels below the workspace root.
const workspaceRoot = process.env['MIGRATE_WORKSPACE_ROOT'] ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

process.exitCode = await runMigrate(process.argv.slice(2), {
  env: process.env,
  root: workspaceRoot,
  out: (line) => console.log(line),
  err: (line) => console.error(line),
});
