// Runs `prisma generate` for one project without the native schema engine: Prisma's CLI tries to
// download that engine from its own host first, which these machines cannot reach, and generate
// does not need it once the variable points at any existing file.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const projectRoot = process.argv[2];
if (!projectRoot) {
  console.error('usage: node tools/prisma/generate.mjs <projectRoot>');
  process.exit(2);
}
const workspace = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const result = spawnSync(
  path.join(workspace, 'node_modules/.bin/prisma'),
  ['generate', '--schema', path.join(projectRoot, 'prisma/schema.prisma')],
  {
    cwd: workspace,
    stdio: 'inherit',
    env: {
      ...process.env,
      PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? fileURLToPath(import.meta.url),
      PRISMA_HIDE_UPDATE_MESSAGE: '1',
      CHECKPOINT_DISABLE: '1',
    },
  },
);
process.exit(result.status ?? 1);
