import { type ConfigOf, parsers, type ServiceConfig } from '@service/service-runtime';

export const activityConfigSpec = {
  ACTIVITY_EVENT_ACK_WAIT_MS: {
    description: 'how long an event handed to a replica that died stays unacknowledged before another replica gets it',
    default: '30000',
    parse: parsers.integer(500, 600_000),
  },
  ACTIVITY_EVENT_LINGER_MS: {
    description:
      'how long a consumed event may wait for others before a smaller batch is written (fewer, fuller statements under load; 0 writes as soon as a writer is free)',
    // 10 ms: under write load, several times fewer and fuller projection transactions than 0.
    default: '10',
    parse: parsers.integer(0, 1_000),
  },
  ACTIVITY_QUERY_TIMEOUT_MS: {
    description:
      'longest a feed read may wait for the database (connecting or querying) before answering 503 wallet_projection_unavailable; ' +
      "keep it below the gateway's NATS_REQUEST_TIMEOUT_MS",
    default: '2000',
    parse: parsers.integer(50, 60_000),
  },
};

export type ActivityConfig = ServiceConfig & ConfigOf<typeof activityConfigSpec>;
