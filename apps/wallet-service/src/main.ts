import { runService } from '@service/service-runtime';
import { AppModule } from './app/app.module.js';

await runService({ name: 'wallet', module: AppModule.forRoot });
