import type { OnApplicationShutdown, Provider } from '@nestjs/common';
import { SERVICE_CONFIG } from '@service/service-runtime';
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
    useFactory: (config: WebhookConfig): UrlPolicy => ({
      httpsOnly: config.SERVICE_ENV === 'production',
      allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_URLS,
    }),
  },
  {
    provide: WEBHOOK_SENDER,
    inject: [URL_POLICY, SERVICE_CONFIG],
    useFactory: (policy: UrlPolicy, config: WebhookConfig) => new ClosingSender(policy, config.WEBHOOK_DELIVERY_TIMEOUT_MS),
  },
  { provide: DELIVERY_WAKE, useExisting: DeliveryDispatcher },
];
