import { runService } from '@service/service-runtime';
import { AppModule } from './app/app.module.js';
import { gvaultConfigSpec } from './config.js';

await runService({ name: 'gvault', spec: gvaultConfigSpec, module: AppModule.forRoot });
