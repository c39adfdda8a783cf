import { type ConfigOf, parsers, type ServiceConfig } from '@service/service-runtime';

export const activityConfigSpec = {
  ACTIVITY_EVENT_ACK_WAIT_MS: {
    description: 'how long an event handed to a replica that died stays unacknowledged before another replica gets it',
    default: '30000',
    parse: parsers.integer(500, 600_000),
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
