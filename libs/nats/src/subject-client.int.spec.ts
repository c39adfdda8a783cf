import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NatsConnection } from '@nats-io/transport-node';
import { type RequestContext, SUBJECTS, type WalletDto } from '@service/contracts';
import { type IsolatedNats, startIsolatedNats } from '@service/testing';
import { connectNats } from './connection.js';
import { NatsRequester } from './requester.js';
import { SubjectClient } from './subject-client.js';

const ctx: RequestContext = { orgId: 'org_1', principalId: 'user_1', role: 'owner', requestId: 'req_1' };

let nats: IsolatedNats;
let client: NatsConnection;
let server: NatsConnection;
let services: SubjectClient;

beforeAll(async () => {
  nats = await startIsolatedNats();
  client = await connectNats({ url: nats.url, name: 'subject-client-spec-client' });
  server = await connectNats({ url: nats.url, name: 'subject-client-spec-server' });
  // Answers wallet.wallets.get like a Nest microservice, echoing what it was sent.
  server.subscribe(SUBJECTS.wallet.walletsGet, {
    callback: (_error, message) => {
      const { data, id } = JSON.parse(message.string()) as { data: unknown; id: string };
      message.respond(JSON.stringify({ response: { id: 'w_1', sent: data }, isDisposed: true, id }));
    },
  });
  await server.flush();
  services = new SubjectClient(new NatsRequester(client, 2_000));
});

afterAll(async () => {
  await Promise.all([client?.close(), server?.close()]);
  await nats?.stop();
});

describe('SubjectClient', () => {
  it("sends a subject's request beside ctx and resolves to the service's response", async () => {
    await expect(services.request(SUBJECTS.wallet.walletsGet, { ctx, walletId: 'w_1' })).resolves.toEqual({
      id: 'w_1',
      sent: { ctx, walletId: 'w_1' },
    });
  });

  it('forwards the response as the JSON text it came as', async () => {
    const forwarded = await services.forward(SUBJECTS.wallet.walletsGet, { ctx, walletId: 'w_2' });
    expect(forwarded.json).toBe(JSON.stringify({ id: 'w_1', sent: { ctx, walletId: 'w_2' } }));
    expect(services.inFlight).toBe(0);
  });
});

/**
 * Type-level checks, run by `npm test`'s type check (tsc): each call drifts from the contract on
 * the gateway's side only and must fail to compile. Never called.
 */
export async function driftingCalls(): Promise<void> {
  // @ts-expect-error a field the subject's request does not have
  await services.forward(SUBJECTS.wallet.walletsGet, { ctx, walletId: 'w', label: 'x' });
  // @ts-expect-error a required field missing
  await services.forward(SUBJECTS.wallet.walletsUpdate, { ctx, label: 'x' });
  // @ts-expect-error a field of another type
  await services.request(SUBJECTS.wallet.approversDelete, { ctx, approverId: 7 });
  // @ts-expect-error no ctx
  await services.request(SUBJECTS.wallet.walletsGet, { walletId: 'w' });
  // @ts-expect-error the response is a wallet, not a list
  const wrong: { data: WalletDto[] } = await services.request(SUBJECTS.wallet.walletsGet, { ctx, walletId: 'w' });
  void wrong;
}
