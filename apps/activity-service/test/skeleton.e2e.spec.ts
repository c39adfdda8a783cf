import { describeServiceSkeleton } from '@service/service-testing';
import { AppModule } from '../src/app/app.module.js';
import { activityConfigSpec } from '../src/config.js';

describeServiceSkeleton('activity', AppModule.forRoot, activityConfigSpec);
