import type { OnApplicationShutdown, Provider } from '@nestjs/common';
import { SERVICE_CONFIG } from '@service/service-runtime';
import type { WebhookConfig } from '../config.js';
import { WebhookSender } from './deliveries/sender.js';
import { SecretBox } from './security/secret-box.js';
import type { UrlPolicy } from './security/url-policy.js';

export const SECRET_BOX = Symbol('SECRET_BOX');
export const URL_POLICY = Symbol('URL_POLICY');
export const WEBHOOK_SENDER = Symbol('WEBHOOK_SENDER');

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
];
