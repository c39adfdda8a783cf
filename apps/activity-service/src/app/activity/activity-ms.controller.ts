import { Controller } from '@nestjs/common';
import { type ActivityPageDto, SUBJECTS, type WireRequestOf } from '@service/contracts';
import { Handles } from '@service/service-runtime';
import { ActivityService } from './activity.service.js';

@Controller()
export class ActivityMsController {
  constructor(private readonly activity: ActivityService) {}

  @Handles(SUBJECTS.activity.feedList)
  list({ ctx, ...input }: WireRequestOf<typeof SUBJECTS.activity.feedList>): Promise<ActivityPageDto> {
    return this.activity.list(ctx, input);
  }
}
