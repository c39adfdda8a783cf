import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { SERVICE_CONFIG } from '@service/service-runtime';
import type { IdentityConfig } from '../../config.js';
import { EndAnnouncer } from '../api-keys/end-announcer.js';

/** Every IDENTITY_EXPIRY_SWEEP_MS, announces the keys whose expiry or roll grace period passed. */
@Injectable()
export class ExpirySweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly announcer: EndAnnouncer,
    @Inject(SERVICE_CONFIG) private readonly config: IdentityConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.announcer.announceNow(), this.config.IDENTITY_EXPIRY_SWEEP_MS);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.announcer.settled();
  }
}
