import { describeServiceSkeleton } from '@service/service-testing';
import { AppModule } from './app/app.module.js';
import { activityConfigSpec } from './config.js';

describeServiceSkeleton('activity', AppModule.forRoot, activityConfigSpec);
