import { SubjectRequestMetrics } from '@service/metrics';

/** How a request ended for its requester: a reply, an error reply by status class, or none. */
export const NATS_CLIENT_OUTCOMES = ['ok', 'error_4xx', 'error_5xx', 'timeout', 'no_responder', 'unavailable'] as const;
export type NatsClientOutcome = (typeof NATS_CLIENT_OUTCOMES)[number];

/**
 * `nats_client_requests_total{subject,outcome}` and `nats_client_request_duration_seconds`:
 * the requester's side of request/reply (the gateway's calls into the services).
 */
export type NatsClientMetrics = SubjectRequestMetrics<NatsClientOutcome>;

export function natsClientMetrics(): NatsClientMetrics {
  return new SubjectRequestMetrics(
    {
      total: 'nats_client_requests_total',
      duration: 'nats_client_request_duration_seconds',
      help: 'NATS requests sent, by subject and outcome.',
    },
    NATS_CLIENT_OUTCOMES,
  );
}

/** How a request ended for the service that handled it: answered, or refused by status class. */
export const NATS_SERVER_OUTCOMES = ['ok', 'error_4xx', 'error_5xx'] as const;
export type NatsServerOutcome = (typeof NATS_SERVER_OUTCOMES)[number];

/**
 * `nats_server_requests_total{subject,outcome}` and `nats_server_request_duration_seconds`: the
 * handler's side of request/reply, from the message's arrival to its reply.
 */
export type NatsServerMetrics = SubjectRequestMetrics<NatsServerOutcome>;

export function natsServerMetrics(): NatsServerMetrics {
  return new SubjectRequestMetrics(
    {
      total: 'nats_server_requests_total',
      duration: 'nats_server_request_duration_seconds',
      help: 'NATS requests handled, by subject and outcome.',
    },
    NATS_SERVER_OUTCOMES,
  );
}
