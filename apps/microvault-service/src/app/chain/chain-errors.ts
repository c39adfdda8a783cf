import { BaseError, ContractFunctionRevertedError, HttpRequestError, SocketClosedError, TimeoutError } from 'viem';

/**
 * True when the node could not be reached or did not answer in time: the work is retried later
 * rather than failed, since nothing on the chain has decided against it.
 */
export function isChainUnavailable(error: unknown): boolean {
  if (!(error instanceof BaseError)) return true;
  return (
    error.walk((cause) => cause instanceof HttpRequestError || cause instanceof TimeoutError || cause instanceof SocketClosedError) !==
    null
  );
}

/** What a failed task shows in `error`: the revert reason, or the node's short message. */
export function chainErrorMessage(error: unknown): string {
  if (!(error instanceof BaseError)) return error instanceof Error ? error.message : String(error);
  const reverted = error.walk((cause) => cause instanceof ContractFunctionRevertedError);
  if (reverted instanceof ContractFunctionRevertedError) {
    return reverted.reason ? `execution reverted: ${reverted.reason}` : reverted.shortMessage;
  }
  return error.shortMessage;
}

/**
 * What a log line may say of a chain error: the short message, the node's details and the root
 * cause (`connect ECONNREFUSED 10.0.0.5:8545`, say). Never the whole message, which names the RPC
 * URL, and a provider's URL can hold its API key.
 */
export function chainErrorForLog(error: unknown): string {
  if (!(error instanceof BaseError)) return error instanceof Error ? error.message : String(error);
  const root: unknown = error.walk();
  const rootMessage = root instanceof BaseError ? root.shortMessage : root instanceof Error ? root.message : undefined;
  const parts = [chainErrorMessage(error), error.details, rootMessage].filter((part): part is string => Boolean(part)).map((part) => part.replace(/\.$/, ''));
  return [...new Set(parts)].join(': ');
}
