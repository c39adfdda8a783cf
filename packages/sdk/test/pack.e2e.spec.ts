import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestSystem, type TestSystem } from '@service/testing';

const run = promisify(execFile);
const sdkRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const workspaceRoot = path.resolve(sdkRoot, '../..');

/** What an integrator's first script does with the installed package: plain ESM JavaScript. */
const SMOKE = `
import { createHmac } from 'node:crypto';
import { ERROR_CODES, ServiceApiError, ServiceClient, verifyWebhook } from '@service/sdk';

const [baseUrl, token] = process.argv.slice(2);
const ping = await new ServiceClient({ token, baseUrl }).system.ping();
let refused;
try {
  await new ServiceClient({ token: 'not-a-token', baseUrl }).system.ping();
} catch (error) {
  refused = error instanceof ServiceApiError ? { status: error.status, code: error.code } : String(error);
}
const secret = 'ab'.repeat(32);
const body = JSON.stringify({ event: 'webhook.test', observedAt: new Date().toISOString(), webhookId: 'w1' });
const t = Math.floor(Date.now() / 1000);
const signature = createHmac('sha256', secret).update(t + '.' + body).digest('hex');
const event = verifyWebhook({ payload: body, headers: { 'Service-Signature': 't=' + t + ',v1=' + signature }, secret });
console.log(JSON.stringify({ ping, refused, event: event.event, codes: ERROR_CODES.includes('rate_limited') }));
`;

/** The same from TypeScript, to check the package's declarations resolve through its exports. */
const TYPED = `
import { ServiceClient, type ErrorCode, type Wallet } from '@service/sdk';

const client = new ServiceClient({ apiKey: 'service_sandbox_x', baseUrl: 'http://127.0.0.1:3000' });
export const wallet: Promise<Wallet> = client.wallets.get('0f6f3c1e-4c7b-4a55-9d5e-2f0f7b8f9a10');
export const code: ErrorCode = 'wallet_not_found';
`;

let system: TestSystem;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sdk-pack-'));
  system = await startTestSystem({ services: [], gateways: 1 });
}, 90_000);

afterAll(async () => {
  await system?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
}, 30_000);

describe('the packed @service/sdk', () => {
  it('installs into an empty directory from the tarball alone and works against a running gateway', async () => {
    const { stdout: packed } = await run('npm', ['pack', '--json', '--pack-destination', dir], { cwd: sdkRoot });
    const [{ filename, files }] = JSON.parse(packed) as { filename: string; files: { path: string }[] }[];
    const paths = files.map((file) => file.path);
    expect(paths).toEqual(
      expect.arrayContaining(['package.json', 'README.md', 'dist/index.js', 'dist/index.d.ts', 'dist/generated/openapi.d.ts']),
    );
    expect(paths.filter((file) => !file.startsWith('dist/') && !['package.json', 'README.md'].includes(file))).toEqual([]);
    expect(paths.some((file) => file.includes('.spec.'))).toBe(false);

    const app = path.join(dir, 'app');
    await mkdir(app);
    await writeFile(path.join(app, 'package.json'), JSON.stringify({ name: 'sdk-smoke', private: true, type: 'module' }));
    // openapi-fetch and its one dependency come from the npm cache when it has them, else from the registry;
    // nothing comes from the workspace. (--offline failed on CI's fresh machine, whose cache holds the
    // tarballs from installing the lockfile but not the packuments a range needs.)
    await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', path.join(dir, filename)], { cwd: app });
    expect((await readdir(path.join(app, 'node_modules'))).filter((name) => !name.startsWith('.')).sort()).toEqual([
      '@service',
      'openapi-fetch',
      'openapi-typescript-helpers',
    ]);

    await writeFile(path.join(app, 'smoke.mjs'), SMOKE);
    const token = await system.auth.token({ org: 'org_sdk_smoke', role: 'owner', sub: 'user_smoke' });
    const { stdout } = await run(process.execPath, ['smoke.mjs', system.gateways[0]!.url, token], { cwd: app });
    expect(JSON.parse(stdout)).toEqual({
      ping: { message: 'pong' },
      refused: { status: 401, code: 'unauthenticated' },
      event: 'webhook.test',
      codes: true,
    });

    await writeFile(path.join(app, 'typed.ts'), TYPED);
    await writeFile(
      path.join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2023',
          typeRoots: [path.join(workspaceRoot, 'node_modules/@types')],
          types: ['node'],
        },
        files: ['typed.ts'],
      }),
    );
    await run(process.execPath, [path.join(workspaceRoot, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: app });
  }, 120_000);
});
