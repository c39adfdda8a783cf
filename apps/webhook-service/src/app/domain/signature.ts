import { createHmac } from 'node:crypto';

/**
 * Headers that let a receiver check a delivery: `Service-Signature: t=<unix>,v1=<hex>` over
 * `<t>.<body>`, and the Standard Webhooks trio over `<id>.<t>.<body>` (verifiable with the
 * `standardwebhooks` or `svix` libraries given `whsec_` + base64(secret)). Both use the secret's
 * text as the HMAC-SHA256 key, and `body` is the exact text sent.
 *
 * While a rotated-out secret is still within its overlap (`previousSecret`), each header carries
 * one signature per secret, the current secret's first, where the only one stands otherwise:
 * `t=<unix>,v1=<current>,v1=<previous>` (as Stripe signs during a secret roll) and
 * `v1,<current> v1,<previous>` (the Standard Webhooks list). A receiver accepts the delivery when
 * any `v1` entry matches the secret it holds.
 */
export function signatureHeaders(
  secret: string,
  eventId: string,
  body: string,
  unixSeconds: number,
  previousSecret?: string | null,
): Record<string, string> {
  const t = String(unixSeconds);
  const secrets = previousSecret ? [secret, previousSecret] : [secret];
  const hex = secrets.map((key) => `v1=${createHmac('sha256', key).update(`${t}.${body}`).digest('hex')}`);
  const base64 = secrets.map((key) => `v1,${createHmac('sha256', key).update(`${eventId}.${t}.${body}`).digest('base64')}`);
  return {
    'service-signature': [`t=${t}`, ...hex].join(','),
    'webhook-id': eventId,
    'webhook-timestamp': t,
    'webhook-signature': base64.join(' '),
  };
}
