import { createHmac } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { Webhook } from 'standardwebhooks';
import { newSigningSecret, SecretBox } from './secret-box.js';
import { signatureHeaders } from './signature.js';
import { checkRegistrationUrl, resolveReceiver } from '../receivers/receiver-address.js';
import { isNonPublicAddress } from './url-policy.js';

describe('SecretBox', () => {
  const box = new SecretBox(Buffer.alloc(32, 7));

  it('round-trips a secret and never stores it in clear', () => {
    const secret = newSigningSecret();
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    const sealed = box.seal(secret);
    expect(sealed).not.toContain(secret);
    expect(box.open(sealed)).toBe(secret);
    expect(box.seal(secret)).not.toBe(sealed);
  });

  it('refuses a tampered value or another key', () => {
    const sealed = box.seal(newSigningSecret());
    expect(() => new SecretBox(Buffer.alloc(32, 8)).open(sealed)).toThrow();
    // One bit of the ciphertext flipped. (Writing "AA" over its last two characters changed no bit
    // when they already decoded to zeros: 1 in 256 seals, seen failing in CI.)
    const [version, iv, tag, ciphertext] = sealed.split('.');
    const bytes = Buffer.from(ciphertext ?? '', 'base64url');
    bytes[0] = (bytes[0] ?? 0) ^ 1;
    expect(() => box.open([version, iv, tag, bytes.toString('base64url')].join('.'))).toThrow();
  });
});

describe('signatureHeaders', () => {
  it('signs so standardwebhooks and a plain HMAC of "<t>.<body>" both verify', () => {
    const secret = newSigningSecret();
    const body = '{"event":"portfolio_wallet.status_changed","n":1}';
    const t = Math.floor(Date.now() / 1000);
    const headers = signatureHeaders(secret, 'evt_1', body, t);
    expect(new Webhook(`whsec_${Buffer.from(secret).toString('base64')}`).verify(body, headers)).toEqual(JSON.parse(body));
    expect(headers['service-signature']).toBe(`t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`);
  });
});

describe('URL policy', () => {
  const production = { httpsOnly: true, allowPrivate: false };

  it.each(['127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1'])(
    'treats %s as non-public',
    (address) => expect(isNonPublicAddress(address)).toBe(true),
  );

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111'])('treats %s as public', (address) => {
    expect(isNonPublicAddress(address)).toBe(false);
  });

  it('in production wants https and a public address', async () => {
    await expect(checkRegistrationUrl('http://93.184.216.34/hook', production)).rejects.toMatchObject({ code: 'validation_error' });
    await expect(checkRegistrationUrl('https://10.0.0.1/hook', production)).rejects.toMatchObject({ code: 'validation_error' });
    await expect(checkRegistrationUrl('https://[::1]/hook', production)).rejects.toMatchObject({ code: 'validation_error' });
    await expect(checkRegistrationUrl('https://localhost/hook', production)).rejects.toMatchObject({ code: 'validation_error' });
    await expect(checkRegistrationUrl('https://user:pw@93.184.216.34/hook', production)).rejects.toMatchObject({ code: 'validation_error' });
    await expect(checkRegistrationUrl('https://93.184.216.34/hook', production)).resolves.toBeUndefined();
  });

  it('allows local receivers when private URLs are allowed, and checks the address again at delivery', async () => {
    await expect(checkRegistrationUrl('http://127.0.0.1:9/hook', { httpsOnly: false, allowPrivate: true })).resolves.toBeUndefined();
    await expect(resolveReceiver(new URL('http://127.0.0.1:9/'), { httpsOnly: false, allowPrivate: true })).resolves.toEqual({ address: '127.0.0.1', family: 4 });
    await expect(resolveReceiver(new URL('https://localhost/'), production)).rejects.toThrow(/private, loopback or link-local/);
  });
});
