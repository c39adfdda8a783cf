import { ConfigError, createLogger, loadConfig, natsClientAuthOf } from '@service/service-runtime';
import { startTracing } from '@service/tracing';
import pino from 'pino';
import { createGateway } from './app/bootstrap.js';
import { checkAuthSource, gatewayConfigSpec } from './config.js';

try {
  const config = loadConfig(gatewayConfigSpec);
  const authProblem = checkAuthSource(config);
  if (authProblem) throw new ConfigError([authProblem]);
  natsClientAuthOf(config, 'gateway');
  // Before the logger: its lines carry the active span's ids only when tracing runs.
  startTracing('gateway');
  // What pino writes to by default (standard output, asynchronous, flushed on exit), made here so
  // that the access log writes to the same destination as the logger.
  const logDestination = pino.destination({ dest: 1, sync: false });
  await createGateway(config, createLogger('gateway', config.LOG_LEVEL, logDestination), logDestination);
} catch (error) {
  console.error(`gateway: ${error instanceof ConfigError ? error.message : `failed to start: ${(error as Error).message}`}`);
  process.exit(1);
}
