import { describeServiceSkeleton } from '@service/service-testing';
import { loadConfig, type ServiceConfig } from '@service/service-runtime';
import { TEST_WEBHOOK_SECRET_ENCRYPTION_KEY } from '@service/testing';
import type { Logger } from 'pino';
import { AppModule } from './app/app.module.js';
import { webhookConfigSpec } from './config.js';

// The skeleton boots with the common variables only; this service's own come from its spec.
const ownConfig = loadConfig(webhookConfigSpec, { WEBHOOK_SECRET_ENCRYPTION_KEY: TEST_WEBHOOK_SECRET_ENCRYPTION_KEY });

describeServiceSkeleton('webhook', (config: ServiceConfig, logger: Logger) => AppModule.forRoot({ ...config, ...ownConfig }, logger));
