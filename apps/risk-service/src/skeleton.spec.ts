import { describeServiceSkeleton } from '@service/service-testing';
import { AppModule } from './app/app.module.js';
import { riskConfigSpec } from './config.js';

describeServiceSkeleton('risk', AppModule.forRoot, riskConfigSpec);
