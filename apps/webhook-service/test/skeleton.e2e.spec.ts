import { describeServiceSkeleton } from '@service/service-testing';
import { AppModule } from '../src/app/app.module.js';

describeServiceSkeleton('webhook', AppModule.forRoot);
