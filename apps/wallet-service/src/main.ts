import { runService } from '@service/service-runtime';
import { AppModule } from './app/app.module.js';
import { walletConfigSpec } from './config.js';

await runService({ name: 'wallet', spec: walletConfigSpec, module: AppModule.forRoot });
