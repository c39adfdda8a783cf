import { describeServiceSkeleton } from '@service/service-testing';
import { AppModule } from '../src/app/app.module.js';
import { identityConfigSpec } from '../src/config.js';

describeServiceSkeleton('identity', AppModule.forRoot, identityConfigSpec);
