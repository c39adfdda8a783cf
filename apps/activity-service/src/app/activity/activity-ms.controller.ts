import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { type ActivityPageDto, type RpcRequest, SUBJECTS } from '@service/contracts';
import { ActivityService } from './activity.service.js';
import type { FeedInput } from './feed-query.js';

@Controller()
export class ActivityMsController {
  constructor(private readonly activity: ActivityService) {}

  @MessagePattern(SUBJECTS.activity.feedList)
  list(@Payload() { ctx, ...input }: RpcRequest<FeedInput & { limit?: string }>): Promise<ActivityPageDto> {
    return this.activity.list(ctx, input);
  }
}
