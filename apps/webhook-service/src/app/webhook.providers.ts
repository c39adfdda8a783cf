import type { OnApplicationShutdown, Provider } from '@nestjs/common';
import { ConfigError, SERVICE_CONFIG } from '@service/service-runtime';
import type { WebhookConfig } from '../config.js';
import { SecretBox } from './domain/secret-box.js';
import type { UrlPolicy } from './domain/url-policy.js';
import { DELIVERY_WAKE, SECRET_BOX, URL_POLICY, WEBHOOK_SENDER } from './injection.js';
import { WebhookSender } from './receivers/sender.js';
import { DeliveryDispatcher } from './workers/delivery-dispatcher.js';

class ClosingSender extends WebhookSender implements OnApplicationShutdown {
  onApplicationShutdown(): void {
    this.close();
  }
}

export const webhookProviders: Provider[] = [
  {
    provide: SECRET_BOX,
    inject: [SERVICE_CONFIG],
    useFactory: (config: WebhookConfig) => new SecretBox(config.WEBHOOK_SECRET_ENCRYPTION_KEY),
  },
  {
    provide: URL_POLICY,
    inject: [SERVICE_CONFIG],
    useFactory: (config: WebhookConfig): UrlPolicy => {
      if (config.SERVICE_ENV === 'production' && config.WEBHOOK_PRIVATE_HOST_ALLOWLIST.size > 0) {
        throw new ConfigError([
          'WEBHOOK_PRIVATE_HOST_ALLOWLIST must be empty when SERVICE_ENV=production (it is for local development only)',
        ]);
      }
      return { httpsOnly: config.SERVICE_ENV === 'production', privateHosts: config.WEBHOOK_PRIVATE_HOST_ALLOWLIST };
    },
  },
  {
    provide: WEBHOOK_SENDER,
    inject: [URL_POLICY, SERVICE_CONFIG],
    useFactory: (policy: UrlPolicy, config: WebhookConfig) => new ClosingSender(policy, config.WEBHOOK_DELIVERY_TIMEOUT_MS),
  },
  { provide: DELIVERY_WAKE, useExisting: DeliveryDispatcher },
];
