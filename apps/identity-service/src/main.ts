import { runService } from '@service/service-runtime';
import { AppModule } from './app/app.module.js';
import { identityConfigSpec } from './config.js';

await runService({ name: 'identity', spec: identityConfigSpec, module: AppModule.forRoot });
