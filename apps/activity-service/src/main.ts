import { runService } from '@service/service-runtime';
import { AppModule } from './app/app.module.js';
import { activityConfigSpec } from './config.js';

await runService({ name: 'activity', spec: activityConfigSpec, module: AppModule.forRoot });
