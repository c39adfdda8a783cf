/** Injection symbols of this service's providers that are not classes. */

/** The task worker, as the features see it: {@link TaskRunner}. */
export const TASK_RUNNER = Symbol('TASK_RUNNER');
