import { BaseError } from 'viem';

/**
 * Log fields for an error that may come from a chain's RPC node. viem's errors name the RPC URL in
 * their message and stack, and a provider's URL (Infura, Alchemy, QuickNode) carries its API key:
 * such an error is logged as `error`, one line of its short message, the node's details and the
 * root cause (`HTTP request failed: fetch failed: connect ECONNREFUSED 10.0.0.5:8545`). Any other
 * error keeps pino's `err`, message and stack.
 */
export function chainErrorLogFields(error: unknown): { error: string } | { err: unknown } {
  if (!(error instanceof BaseError)) return { err: error };
  const root: unknown = error.walk();
  const rootMessage = root instanceof BaseError ? root.shortMessage : messageOf(root);
  const parts = [error.shortMessage, error.details, rootMessage]
    .filter((part): part is string => Boolean(part))
    .map((part) => part.replace(/\.$/, ''));
  return { error: [...new Set(parts)].join(': ') };
}

/**
 * A root cause's message, or its code (`ECONNRESET`) when it has none. Read by shape, not with
 * `instanceof Error`: Node's own errors come from another realm than code run in a VM context (a
 * Jest test's, say).
 */
function messageOf(cause: unknown): string | undefined {
  if (typeof cause !== 'object' || cause === null) return undefined;
  const { message, code } = cause as { message?: unknown; code?: unknown };
  if (typeof message === 'string' && message !== '') return message;
  return typeof code === 'string' ? code : undefined;
}
