import { describeServiceSkeleton } from '@service/service-testing';
import { AppModule } from '../src/app/app.module.js';
import { gvaultConfigSpec } from '../src/config.js';

describeServiceSkeleton('gvault', AppModule.forRoot, gvaultConfigSpec);
