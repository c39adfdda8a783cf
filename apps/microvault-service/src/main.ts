import { runService } from '@service/service-runtime';
import { AppModule } from './app/app.module.js';

await runService({ name: 'microvault', module: AppModule.forRoot });
