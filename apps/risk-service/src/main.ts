import { runService } from '@service/service-runtime';
import { AppModule } from './app/app.module.js';
import { riskConfigSpec } from './config.js';

await runService({ name: 'risk', spec: riskConfigSpec, module: AppModule.forRoot });
