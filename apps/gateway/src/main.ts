import { ConfigError, createLogger, loadConfig } from '@service/service-runtime';
import { startTracing } from '@service/tracing';
import { createGateway } from './app/bootstrap.js';
import { checkAuthSource, gatewayConfigSpec } from './config.js';

try {
  const config = loadConfig(gatewayConfigSpec);
  const authProblem = checkAuthSource(config);
  if (authProblem) throw new ConfigError([authProblem]);
  // Before the logger: its lines carry the active span's ids only when tracing runs.
  startTracing('gateway');
  await createGateway(config, createLogger('gateway', config.LOG_LEVEL));
} catch (error) {
  console.error(`gateway: ${error instanceof ConfigError ? error.message : `failed to start: ${(error as Error).message}`}`);
  process.exit(1);
}
