/**
 * What the features ask of the task worker, which implements it (provided under TASK_RUNNER), so
 * a feature never imports the worker that sits above it.
 */
export interface TaskRunner {
  /** Runs a round soon (after a new task) instead of waiting for the interval. */
  wake(): void;
  /** Runs `work` with the operator key to itself (no round meanwhile, the signer lease held). */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
}
