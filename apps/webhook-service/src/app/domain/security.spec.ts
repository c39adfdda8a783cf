import { createCipheriv, createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { Webhook } from 'standardwebhooks';
import { newSigningSecret, SecretBox } from './secret-box.js';
import { signatureHeaders } from './signature.js';
import { checkRegistrationUrl, type HostLookup, RECEIVER_HOST_REFUSED, resolveReceiver } from '../receivers/receiver-address.js';
import { isNonPublicAddress, privateHostAllowlist } from './url-policy.js';

/** How a secret was sealed before the row binding (`v1.`, no associated data), to check such rows still open. */
function legacySeal(key: Buffer, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return ['v1', ...[iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString('base64url'))].join('.');
}

describe('SecretBox', () => {
  const key = Buffer.alloc(32, 7);
  const box = new SecretBox(key);
  const rowA = { registrationId: '3f6c1d2e-8a4b-4c5d-9e6f-7a8b9c0d1e2f', orgId: 'org_a' };
  const rowB = { registrationId: '5b1d9c3e-0c6a-4f57-9d3b-2f0f1c7a8e11', orgId: 'org_a' };

  it('round-trips a secret and never stores it in clear', () => {
    const secret = newSigningSecret();
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    const sealed = box.seal(secret, rowA);
    expect(sealed).toMatch(/^v2\./);
    expect(SecretBox.isBound(sealed)).toBe(true);
    expect(sealed).not.toContain(secret);
    expect(box.open(sealed, rowA)).toBe(secret);
    expect(box.seal(secret, rowA)).not.toBe(sealed);
  });

  it('opens a sealed secret only in its own row: another registration id or organization fails', () => {
    const sealed = box.seal(newSigningSecret(), rowA);
    expect(() => box.open(sealed, rowB)).toThrow();
    expect(() => box.open(sealed, { ...rowA, orgId: 'org_b' })).toThrow();
    // Associated data is not a prefix match: the fields are delimited.
    expect(() => box.open(sealed, { registrationId: rowA.registrationId, orgId: 'org_' })).toThrow();
  });

  it('opens a secret sealed before the binding (v1, no associated data) in any row, and marks it for re-sealing', () => {
    const secret = newSigningSecret();
    const sealed = legacySeal(key, secret);
    expect(box.open(sealed, rowA)).toBe(secret);
    expect(box.open(sealed, rowB)).toBe(secret);
    expect(SecretBox.isBound(sealed)).toBe(false);
    expect(() => new SecretBox(Buffer.alloc(32, 8)).open(sealed, rowA)).toThrow();
  });

  it('refuses a tampered value, another key, a downgrade to v1 or an unknown format', () => {
    const sealed = box.seal(newSigningSecret(), rowA);
    expect(() => new SecretBox(Buffer.alloc(32, 8)).open(sealed, rowA)).toThrow();
    // One bit of the ciphertext flipped. (Writing "AA" over its last two characters changed no bit
    // when they already decoded to zeros: 1 in 256 seals, seen failing in CI.)
    const [version, iv, tag, ciphertext] = sealed.split('.');
    const bytes = Buffer.from(ciphertext ?? '', 'base64url');
    bytes[0] = (bytes[0] ?? 0) ^ 1;
    expect(() => box.open([version, iv, tag, bytes.toString('base64url')].join('.'), rowA)).toThrow();
    // A bound value relabelled v1 would open without associated data: the tag fails instead.
    expect(() => box.open(['v1', iv, tag, ciphertext].join('.'), rowB)).toThrow();
    expect(() => box.open(['v3', iv, tag, ciphertext].join('.'), rowA)).toThrow('sealed secret has an unknown format');
    expect(() => box.open(`${sealed}.x`, rowA)).toThrow('sealed secret has an unknown format');
  });
});

describe('signatureHeaders', () => {
  const body = '{"event":"portfolio_wallet.status_changed","n":1}';
  const whsec = (secret: string) => `whsec_${Buffer.from(secret).toString('base64')}`;
  const hmacHex = (secret: string, t: number) => createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');

  it('signs so standardwebhooks and a plain HMAC of "<t>.<body>" both verify', () => {
    const secret = newSigningSecret();
    const t = Math.floor(Date.now() / 1000);
    const headers = signatureHeaders(secret, 'evt_1', body, t);
    expect(new Webhook(whsec(secret)).verify(body, headers)).toEqual(JSON.parse(body));
    expect(headers['service-signature']).toBe(`t=${t},v1=${hmacHex(secret, t)}`);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
  });

  it('signs with both secrets during an overlap, the current one first where the only one stands otherwise', () => {
    const [current, previous] = [newSigningSecret(), newSigningSecret()];
    const t = Math.floor(Date.now() / 1000);
    const headers = signatureHeaders(current, 'evt_1', body, t, previous);
    expect(headers['service-signature']).toBe(`t=${t},v1=${hmacHex(current, t)},v1=${hmacHex(previous, t)}`);
    expect(headers['webhook-signature']?.split(' ')).toHaveLength(2);
    for (const secret of [current, previous]) expect(new Webhook(whsec(secret)).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(whsec(newSigningSecret())).verify(body, headers)).toThrow();
    // No previous secret (none, or its overlap over): one signature, as before any rotation.
    expect(signatureHeaders(current, 'evt_1', body, t, null)).toEqual(signatureHeaders(current, 'evt_1', body, t));
  });
});

describe('URL policy', () => {
  const production = { httpsOnly: true, privateHosts: new Set<string>() };

  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.20.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
  ])('treats %s as non-public', (address) => expect(isNonPublicAddress(address)).toBe(true));

  it.each([
    ['IPv4-mapped', '::ffff:93.184.216.34'],
    ['IPv4-mapped, hex', '::ffff:5db8:d822'],
    ['IPv4-compatible', '::93.184.216.34'],
    ['IPv4-compatible, hex', '::a00:1'],
    ['IPv4-translated', '::ffff:0:a00:1'],
    ['NAT64', '64:ff9b::a00:1'],
    ['NAT64 of a public address', '64:ff9b::5db8:d822'],
    ['local-use NAT64', '64:ff9b:1::a00:1'],
    ['6to4', '2002:a00:1::1'],
    ['6to4, upper case', '2002:7F00:1::'],
    ['Teredo', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
    ['documentation', '2001:db8::1'],
    ['discard-only', '100::1'],
    ['scoped link-local', 'fe80::1%eth0'],
  ])('treats %s %s as non-public (an IPv6 transition range)', (_range, address) => {
    expect(isNonPublicAddress(address)).toBe(true);
  });

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '2606:4700:4700::1111',
    // Public neighbours of the transition ranges.
    '::1:0:0:1',
    '::fffe:5db8:d822',
    '64:ff9b::1:5db8:d822',
    '64:ff9a:ffff:ffff:ffff:ffff:ffff:ffff',
    '2001:1::1',
    '2001:4860:4860::8888',
    '2003::1',
    '2001:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
  ])('treats %s as public', (address) => {
    expect(isNonPublicAddress(address)).toBe(false);
  });

  it('in production wants https and a public address', async () => {
    await expect(checkRegistrationUrl('http://93.184.216.34/hook', production)).rejects.toMatchObject({ code: 'validation_error' });
    await expect(checkRegistrationUrl('https://10.0.0.1/hook', production)).rejects.toMatchObject({ code: 'validation_error' });
    await expect(checkRegistrationUrl('https://[::1]/hook', production)).rejects.toMatchObject({ code: 'validation_error' });
    await expect(checkRegistrationUrl('https://localhost/hook', production)).rejects.toMatchObject({ code: 'validation_error' });
    await expect(checkRegistrationUrl('https://user:pw@93.184.216.34/hook', production)).rejects.toMatchObject({
      code: 'validation_error',
    });
    await expect(checkRegistrationUrl('https://93.184.216.34/hook', production)).resolves.toBeUndefined();
  });

  it('lets only a host on the allowlist be private, and checks the address again at delivery', async () => {
    const local = { httpsOnly: false, privateHosts: privateHostAllowlist('127.0.0.1, LocalHost') };
    await expect(checkRegistrationUrl('http://127.0.0.1:9/hook', local)).resolves.toBeUndefined();
    await expect(checkRegistrationUrl('http://localhost:9/hook', local)).resolves.toBeUndefined();
    await expect(resolveReceiver(new URL('http://127.0.0.1:9/'), local)).resolves.toEqual({ address: '127.0.0.1', family: 4 });
    await expect(resolveReceiver(new URL('https://localhost/'), production)).rejects.toThrow(/private, loopback or link-local/);
    // Another private host, and the same address under another name, are refused as in production.
    for (const url of [
      'http://10.0.0.1/hook',
      'http://127.0.0.2/hook',
      'http://0.0.0.0/hook',
      'http://[::1]/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'http://[64:ff9b::7f00:1]/hook',
    ]) {
      await expect(checkRegistrationUrl(url, local)).rejects.toMatchObject({ code: 'validation_error', message: RECEIVER_HOST_REFUSED });
    }
    const rebinding: HostLookup = async () => [{ address: '127.0.0.1', family: 4 }];
    await expect(resolveReceiver(new URL('http://rebind.example.com/'), local, rebinding)).rejects.toThrow(
      /private, loopback or link-local/,
    );
  });

  it('reads the allowlist: host names and IP addresses, lower-cased; anything else refused with a clear message', () => {
    expect([...privateHostAllowlist('')]).toEqual([]);
    expect([...privateHostAllowlist('127.0.0.1,localhost, Host.Docker.Internal ,::1,')]).toEqual([
      '127.0.0.1',
      'localhost',
      'host.docker.internal',
      '[::1]',
    ]);
    for (const bad of ['*', '*.example.com', 'http://localhost', 'localhost:3000', '10.0.0.0/8', 'a b', 'host/path']) {
      expect(() => privateHostAllowlist(bad)).toThrow(
        /must be comma-separated host names or IP addresses without scheme, port, path or wildcard/,
      );
    }
  });

  it('answers a host that does not resolve with a fixed message, and hands the resolver text to the log only', async () => {
    const failing: HostLookup = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.invalid'), { code: 'ENOTFOUND' });
    };
    const logged: string[] = [];
    const refused = checkRegistrationUrl('https://nowhere.invalid/hook', production, (detail) => logged.push(detail.message), failing);
    await expect(refused).rejects.toMatchObject({ code: 'validation_error', message: RECEIVER_HOST_REFUSED });
    await expect(refused.catch((error: Error) => error.message)).resolves.not.toMatch(/ENOTFOUND|getaddrinfo/);
    expect(logged).toEqual(['getaddrinfo ENOTFOUND nowhere.invalid']);
  });
});
