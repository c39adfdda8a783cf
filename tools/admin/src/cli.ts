import { parseArgs } from 'node:util';
import { ServiceError } from '@service/errors';
import { createApiKey, isRole } from './api-keys.js';
import { createVault, enableOrganization } from './microvaults.js';
import { operatorNatsFromEnv } from './operator.js';
import { ensureStream, eventStreamFromEnv } from './streams.js';
import { failNextPayout, pinClock } from './wallets.js';

/**
 * Operator commands (`npm run -s admin -- <area> <command> [options]`). They talk to the services
 * over NATS as the NATS user `admin` (NATS_URL and NATS_PASSWORD or NATS_PASSWORD_FILE, or
 * NATS_CREDS; without any, the server `npm start` runs; see operatorNatsFromEnv), never to their
 * databases; `streams ensure` talks to JetStream as the NATS user `ops`.
 */
const USAGE = `usage:
  npm run -s admin -- microvaults enable --org <orgId>         enable an organization for MicroVaults (sandbox only)
  npm run -s admin -- microvaults create-vault --org <orgId>   deploy and register a vault; prints its id
  npm run -s admin -- api-keys create --org <orgId> --role <owner|admin|member> --name <name> [--expires-at <ISO 8601>]
                                                               create an API key; prints the key (shown only once)
  npm run -s admin -- wallets fail-next-payout --org <orgId>   sandbox only: the organization's next payout leg fails retryably
  npm run -s admin -- wallets pin-clock --at <ISO 8601|now>    sandbox with WALLET_CLOCK_CONTROL only: a replica's clock stops there (now: runs again)
  npm run -s admin -- streams ensure                           as the NATS user ops: create the event stream or bring it up to date`;

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      org: { type: 'string' },
      role: { type: 'string' },
      name: { type: 'string' },
      'expires-at': { type: 'string' },
      at: { type: 'string' },
    },
  });
  const [area, command] = positionals;
  if (area === 'streams' && command === 'ensure') {
    const stream = eventStreamFromEnv();
    const outcome = await ensureStream(operatorNatsFromEnv(process.env, 'ops'), stream);
    console.log(`event stream ${stream.stream} on ${stream.subjectPrefix}.>: ${outcome}`);
    return 0;
  }
  const nats = operatorNatsFromEnv();
  if (area === 'api-keys' && command === 'create' && values.org && values.name && isRole(values.role)) {
    const created = await createApiKey(nats, { orgId: values.org, role: values.role, name: values.name, expiresAt: values['expires-at'] });
    console.log(created.key);
    return 0;
  }
  if (area === 'wallets' && command === 'fail-next-payout' && values.org) {
    const armed = await failNextPayout(nats, values.org);
    console.log(`the next payout of organization ${armed.orgId} fails retryably (armed ${armed.armedAt})`);
    return 0;
  }
  if (area === 'wallets' && command === 'pin-clock' && values.at) {
    const { pinnedAt } = await pinClock(nats, values.at === 'now' ? null : values.at);
    console.log(pinnedAt ? `the clock stands at ${pinnedAt}` : 'the clock runs');
    return 0;
  }
  if (area !== 'microvaults' || !values.org || (command !== 'enable' && command !== 'create-vault')) {
    console.error(USAGE);
    return 2;
  }
  if (command === 'enable') {
    const result = await enableOrganization(nats, values.org);
    console.log(`organization ${result.orgId} enabled for MicroVaults since ${result.enabledAt}`);
  } else {
    console.log((await createVault(nats, values.org)).id);
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const detail = error instanceof ServiceError ? `${error.code}: ${error.message}` : (error as Error).message;
    console.error(`admin: ${detail}`);
    process.exit(1);
  },
);
