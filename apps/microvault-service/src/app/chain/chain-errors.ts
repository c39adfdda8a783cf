import { BaseError, ContractFunctionRevertedError, HttpRequestError, SocketClosedError, TimeoutError } from 'viem';

/**
 * True when the node could not be reached or did not answer in time: the work is retried later
 * rather than failed, since nothing on the chain has decided against it.
 */
export function isChainUnavailable(error: unknown): boolean {
  if (!(error instanceof BaseError)) return true;
  return (
    error.walk((cause) => cause instanceof HttpRequestError || cause instanceof TimeoutError || cause instanceof SocketClosedError) !== null
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
