import { describeServiceSkeleton } from '@service/service-testing';
import { AppModule } from '../src/app/app.module.js';

describeServiceSkeleton('gvault', AppModule.forRoot);
