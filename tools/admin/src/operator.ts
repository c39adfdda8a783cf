import { isOrgId, ORG_ID_FORMAT, type ResponseOf, type Subject, type WireRequestOf } from '@service/contracts';
import { connectNats, NatsRequester, SubjectClient } from '@service/nats';

/** Deploying waits for confirmations, so operator requests get far longer than API requests. */
const OPERATOR_TIMEOUT_MS = 180_000;

/** Who sends an operator request: the CLI, as an owner of `orgId`. */
export function operatorContext(orgId: string): WireRequestOf<Subject>['ctx'] {
  if (!isOrgId(orgId)) throw new Error(`--org must be an organization id (${ORG_ID_FORMAT}), got ${JSON.stringify(orgId)}`);
  return { orgId, principalId: 'operator-cli', role: 'owner', requestId: `admin-${Date.now()}` };
}

/** Sends one request to a service over NATS, typed by the contract, and closes the connection. */
export async function operatorRequest<S extends Subject>(natsUrl: string, subject: S, request: WireRequestOf<S>): Promise<ResponseOf<S>> {
  const connection = await connectNats({ url: natsUrl, name: 'admin-cli' });
  try {
    return await new SubjectClient(new NatsRequester(connection, OPERATOR_TIMEOUT_MS)).request(subject, request);
  } finally {
    await connection.close();
  }
}
