import { Controller, Inject, Injectable } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { type HealthReply, type ServiceName, healthSubjectOf } from '@service/contracts';
import { ServiceError } from '@service/errors';
import type { SqlExecutor } from '@service/sql';
import { Handles } from './handles.js';
import { EVENT_DB, NATS_CONNECTION, SERVICE_NAME } from './injection.js';

/** Ready means: the database answers and the event connection is up. */
@Injectable()
export class HealthService {
  constructor(
    @Inject(SERVICE_NAME) private readonly service: string,
    @Inject(EVENT_DB) private readonly db: SqlExecutor,
    @Inject(NATS_CONNECTION) private readonly connection: NatsConnection,
  ) {}

  async check(): Promise<HealthReply> {
    if (this.connection.isClosed()) {
      throw new ServiceError('service_temporarily_unavailable', 'The event connection is closed.');
    }
    try {
      await this.db.$queryRawUnsafe('SELECT 1');
    } catch {
      throw new ServiceError('service_temporarily_unavailable', 'The database does not answer.');
    }
    return { service: this.service, status: 'ok' };
  }
}

/** The health subject handler of one service; the gateway's /readyz asks it. */
export function createHealthController(service: ServiceName) {
  @Controller()
  class HealthController {
    constructor(@Inject(HealthService) readonly health: HealthService) {}

    @Handles(healthSubjectOf(service))
    check(): Promise<HealthReply> {
      return this.health.check();
    }
  }
  return HealthController;
}
