import type { ResponseOf, Subject, WireRequestOf } from '@service/contracts';
import type { ForwardedJson, NatsRequester } from './requester.js';

/**
 * The services as the contract in `@service/contracts` describes them: a subject takes exactly
 * its request beside `ctx` and answers its response type, so a call that drifts from the
 * contract is a compile error. Transport, timeouts and errors are {@link NatsRequester}'s.
 */
export class SubjectClient {
  constructor(private readonly requester: NatsRequester) {}

  /** Requests waiting for a reply. */
  get inFlight(): number {
    return this.requester.inFlight;
  }

  /** The service's response, parsed. */
  request<S extends Subject>(subject: S, request: WireRequestOf<S>, options?: { timeoutMs?: number }): Promise<ResponseOf<S>> {
    return this.requester.request<ResponseOf<S>>(subject, request, options);
  }

  /** The service's response as the JSON text it came as, for a reply that only goes back to an HTTP client. */
  forward<S extends Subject>(
    subject: S,
    request: WireRequestOf<S>,
    options?: { timeoutMs?: number },
  ): Promise<ForwardedJson<ResponseOf<S>>> {
    return this.requester.forward<ResponseOf<S>>(subject, request, options);
  }
}
