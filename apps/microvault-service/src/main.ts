import { runService } from '@service/service-runtime';
import { AppModule } from './app/app.module.js';
import { microvaultConfigSpec } from './config.js';

await runService({ name: 'microvault', spec: microvaultConfigSpec, module: AppModule.forRoot });
