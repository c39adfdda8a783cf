import { createHmac } from 'node:crypto';

/**
 * Headers that let a receiver check a delivery: `Service-Signature: t=<unix>,v1=<hex>` over
 * `<t>.<body>`, and the Standard Webhooks trio over `<id>.<t>.<body>` (verifiable with the
 * `standardwebhooks` or `svix` libraries given `whsec_` + base64(secret)). Both use the secret's
 * text as the HMAC-SHA256 key, and `body` is the exact text sent.
 */
export function signatureHeaders(secret: string, eventId: string, body: string, unixSeconds: number): Record<string, string> {
  const t = String(unixSeconds);
  const hex = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  const base64 = createHmac('sha256', secret).update(`${eventId}.${t}.${body}`).digest('base64');
  return {
    'service-signature': `t=${t},v1=${hex}`,
    'webhook-id': eventId,
    'webhook-timestamp': t,
    'webhook-signature': `v1,${base64}`,
  };
}
