/**
 * Injection symbols of the wallet service. Features depend on these interfaces; the layer above
 * provides them (app.module.ts binds each to its implementation), so no import points upward.
 */

/** Makes the workflow worker look for due work now rather than at its next poll. */
export interface WorkWaker {
  kick(): void;
}

export const WORK_WAKER = Symbol('WORK_WAKER');
