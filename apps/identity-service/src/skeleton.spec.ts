import { describeServiceSkeleton } from '@service/service-testing';
import { AppModule } from './app/app.module.js';
import { identityConfigSpec } from './config.js';

describeServiceSkeleton('identity', AppModule.forRoot, identityConfigSpec);
