import { createHmac } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { Webhook } from 'standardwebhooks';
import { verifyWebhook, type WebhookEvent, WebhookVerificationError } from './webhooks.js';

const SECRET = 'a3f1'.repeat(16);
const NOW = Date.UTC(2026, 10, 24, 12, 0, 0);
const T = Math.floor(NOW / 1000);
const EVENT_ID = '5b0c8e0e-6a57-4b8e-9d0a-6f7a1b2c3d4e';
const BODY = JSON.stringify({
  event: 'portfolio_wallet.deposit.status_changed',
  observedAt: '2026-11-24T12:00:00.000Z',
  walletId: '0f6f3c1e-4c7b-4a55-9d5e-2f0f7b8f9a10',
  deposit: { id: 'd1', amount: '10.000000', status: 'completed' },
});

/** The headers as webhook-service signs a delivery (docs/integrators/webhooks.md). */
function signed(body = BODY, t = T, secret = SECRET) {
  return {
    'service-signature': `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`,
    'webhook-id': EVENT_ID,
    'webhook-timestamp': String(t),
    'webhook-signature': `v1,${createHmac('sha256', secret).update(`${EVENT_ID}.${t}.${body}`).digest('base64')}`,
  };
}

const failure = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('verifyWebhook accepted the delivery');
};

describe('verifyWebhook', () => {
  it('returns the typed event of a valid Service-Signature delivery', () => {
    const event: WebhookEvent = verifyWebhook({ payload: BODY, headers: signed(), secret: SECRET, now: NOW });
    expect(event).toEqual(JSON.parse(BODY));
    if (!('event' in event) || event.event !== 'portfolio_wallet.deposit.status_changed') throw new Error('not narrowed');
    expect(event.deposit.id).toBe('d1');
  });

  it('accepts a Buffer body, a fetch Headers object and any header case', () => {
    const headers = new Headers(signed());
    expect(verifyWebhook({ payload: Buffer.from(BODY), headers, secret: SECRET, now: NOW })).toEqual(JSON.parse(BODY));
    const upper = Object.fromEntries(Object.entries(signed()).map(([name, value]) => [name.toUpperCase(), value]));
    expect(verifyWebhook({ payload: BODY, headers: upper, secret: SECRET, now: NOW })).toEqual(JSON.parse(BODY));
  });

  it('verifies the Standard Webhooks headers alone, with the secret as text or as whsec_', () => {
    const { 'service-signature': _, ...standard } = signed();
    expect(verifyWebhook({ payload: BODY, headers: standard, secret: SECRET, now: NOW })).toEqual(JSON.parse(BODY));
    const whsec = `whsec_${Buffer.from(SECRET).toString('base64')}`;
    expect(verifyWebhook({ payload: BODY, headers: standard, secret: whsec, now: NOW })).toEqual(JSON.parse(BODY));
  });

  it('agrees with the standardwebhooks library', () => {
    const whsec = `whsec_${Buffer.from(SECRET).toString('base64')}`;
    const now = new Date();
    const signature = new Webhook(whsec).sign(EVENT_ID, now, BODY);
    const headers = {
      'webhook-id': EVENT_ID,
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': signature,
    };
    expect(verifyWebhook({ payload: BODY, headers, secret: SECRET })).toEqual(JSON.parse(BODY));
  });

  it.each([
    [
      'a tampered body',
      () => verifyWebhook({ payload: BODY.replace('10.000000', '99.000000'), headers: signed(), secret: SECRET, now: NOW }),
      'invalid_signature',
    ],
    ['a wrong secret', () => verifyWebhook({ payload: BODY, headers: signed(), secret: 'b'.repeat(64), now: NOW }), 'invalid_signature'],
    [
      'a stale timestamp',
      () => verifyWebhook({ payload: BODY, headers: signed(BODY, T - 301), secret: SECRET, now: NOW }),
      'timestamp_out_of_tolerance',
    ],
    [
      'a timestamp from the future',
      () => verifyWebhook({ payload: BODY, headers: signed(BODY, T + 301), secret: SECRET, now: NOW }),
      'timestamp_out_of_tolerance',
    ],
    [
      'a changed timestamp',
      () => {
        const headers = signed();
        headers['service-signature'] = headers['service-signature'].replace(`t=${T}`, `t=${T + 1}`);
        return verifyWebhook({ payload: BODY, headers, secret: SECRET, now: NOW });
      },
      'invalid_signature',
    ],
    [
      'a malformed header',
      () => verifyWebhook({ payload: BODY, headers: { 'service-signature': 'sha256=abc' }, secret: SECRET, now: NOW }),
      'invalid_signature',
    ],
    [
      'no signature',
      () => verifyWebhook({ payload: BODY, headers: { 'content-type': 'application/json' }, secret: SECRET, now: NOW }),
      'missing_signature',
    ],
    [
      'a tampered Standard Webhooks body',
      () => {
        const { 'service-signature': _, ...standard } = signed();
        return verifyWebhook({ payload: `${BODY} `, headers: standard, secret: SECRET, now: NOW });
      },
      'invalid_signature',
    ],
  ])('refuses %s', (_, run, reason) => {
    const error = failure(run);
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect(error).toMatchObject({ reason });
  });

  it('honours toleranceSeconds', () => {
    expect(verifyWebhook({ payload: BODY, headers: signed(BODY, T - 600), secret: SECRET, now: NOW, toleranceSeconds: 900 })).toEqual(
      JSON.parse(BODY),
    );
  });

  it('refuses a signed body that is not JSON', () => {
    expect(failure(() => verifyWebhook({ payload: 'not json', headers: signed('not json'), secret: SECRET, now: NOW }))).toMatchObject({
      reason: 'invalid_payload',
    });
  });
});
