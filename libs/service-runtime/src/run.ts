import 'reflect-metadata';
import type { DynamicModule } from '@nestjs/common';
import type { ServiceName } from '@service/contracts';
import { startTracing } from '@service/tracing';
import type { Logger } from 'pino';
import { bootstrapService, type RunningService } from './bootstrap.js';
import {
  ConfigError,
  type ConfigOf,
  type ConfigSpec,
  type EnvSource,
  loadConfig,
  type ServiceConfig,
  serviceConfigSpec,
} from './config.js';
import { createLogger } from './logger.js';
import { natsClientAuthOf } from './nats-auth.js';

/**
 * A service's whole `main`: validate the environment (print every problem and exit 1 if any),
 * then boot. Returns the running service so tests can start and stop it in-process.
 */
export async function runService<S extends ConfigSpec = Record<never, never>>(options: {
  name: ServiceName;
  /** The service's own variables beside the common ones. */
  spec?: S;
  module: (config: ServiceConfig & ConfigOf<S>, logger: Logger) => DynamicModule;
  env?: EnvSource;
}): Promise<RunningService> {
  let config: ServiceConfig & ConfigOf<S>;
  try {
    const spec = { ...serviceConfigSpec(options.name), ...options.spec };
    config = loadConfig(spec, options.env ?? process.env) as ServiceConfig & ConfigOf<S>;
    natsClientAuthOf(config, options.name);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`${options.name}-service: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  startTracing(`${options.name}-service`, options.env ?? process.env);
  const logger = createLogger(`${options.name}-service`, config.LOG_LEVEL);
  try {
    return await bootstrapService({ name: options.name, module: options.module(config, logger), config, logger });
  } catch (error) {
    logger.fatal({ err: error }, `${options.name}-service failed to start: ${(error as Error).message}`);
    throw error;
  }
}
