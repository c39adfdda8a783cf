import { parseArgs } from 'node:util';
import { isOrgId, ORG_ID_FORMAT, ROLES, type Role } from '@service/contracts';
import { mintDevToken } from './dev-auth.js';

const usage = 'usage: npm run -s token -- --org <orgId> --role <owner|admin|member> [--sub <id>] [--ttl <seconds>]';

function fail(message: string): never {
  console.error(`${message}\n${usage}`);
  process.exit(2);
}

let values: { org?: string; role?: string; sub?: string; ttl?: string };
try {
  ({ values } = parseArgs({
    options: { org: { type: 'string' }, role: { type: 'string' }, sub: { type: 'string' }, ttl: { type: 'string' } },
  }));
} catch (error) {
  fail((error as Error).message);
}
if (!values.org) fail('--org is required');
if (!isOrgId(values.org)) fail(`--org must be an organization id (${ORG_ID_FORMAT}): the gateway refuses any other`);
if (!values.role || !(ROLES as readonly string[]).includes(values.role)) fail('--role must be owner, admin or member');
const ttl = values.ttl === undefined ? undefined : Number(values.ttl);
if (ttl !== undefined && (!Number.isInteger(ttl) || ttl < 1)) fail('--ttl must be a whole number of seconds');

process.stdout.write(`${await mintDevToken({ orgId: values.org, role: values.role as Role, sub: values.sub, ttlSeconds: ttl })}\n`);
