import { describeServiceSkeleton } from '@service/service-testing';
import { AppModule } from './app/app.module.js';
import { gvaultConfigSpec } from './config.js';

describeServiceSkeleton('gvault', AppModule.forRoot, gvaultConfigSpec);
