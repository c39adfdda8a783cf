import { runService } from '@service/service-runtime';
import { AppModule } from './app/app.module.js';
import { webhookConfigSpec } from './config.js';

await runService({ name: 'webhook', spec: webhookConfigSpec, module: AppModule.forRoot });
