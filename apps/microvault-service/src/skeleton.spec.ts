import { describeServiceSkeleton } from '@service/service-testing';
import { AppModule } from './app/app.module.js';

describeServiceSkeleton('microvault', AppModule.forRoot);
