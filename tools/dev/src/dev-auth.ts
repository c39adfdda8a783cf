import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { generateKeyPairSync } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { importPKCS8, SignJWT } from 'jose';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const KEY_DIR = path.join(REPO_ROOT, '.dev', 'auth');
const PRIVATE_KEY = path.join(KEY_DIR, 'signing-key.pem');
const PUBLIC_KEY = path.join(KEY_DIR, 'signing-key.pub.pem');

/** Issuer and audience the dev gateway expects; production takes its own from configuration. */
export const DEV_ISSUER = 'service-dev';
export const DEV_AUDIENCE = 'service-api';
export const DEMO_ORG_ID = 'org_demo';

/**
 * The dev signing key pair (Ed25519), made once and kept in the git-ignored `.dev/` folder, so
 * tokens minted later keep working against a gateway started earlier.
 */
export function ensureDevKeys(): { privateKeyPem: string; publicKeyPem: string } {
  if (!existsSync(PRIVATE_KEY) || !existsSync(PUBLIC_KEY)) {
    mkdirSync(KEY_DIR, { recursive: true });
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    writeFileSync(PRIVATE_KEY, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    writeFileSync(PUBLIC_KEY, publicKey.export({ type: 'spki', format: 'pem' }));
  }
  return { privateKeyPem: readFileSync(PRIVATE_KEY, 'utf8'), publicKeyPem: readFileSync(PUBLIC_KEY, 'utf8') };
}

export interface TokenClaims {
  readonly orgId: string;
  readonly role: 'owner' | 'admin' | 'member';
  readonly sub?: string;
  readonly ttlSeconds?: number;
}

export async function mintDevToken(claims: TokenClaims, privateKeyPem = ensureDevKeys().privateKeyPem): Promise<string> {
  const key = await importPKCS8(privateKeyPem, 'EdDSA');
  return new SignJWT({ org: claims.orgId, role: claims.role })
    .setProtectedHeader({ alg: 'EdDSA', typ: 'JWT' })
    .setSubject(claims.sub ?? `user_${claims.role}`)
    .setIssuer(DEV_ISSUER)
    .setAudience(DEV_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + (claims.ttlSeconds ?? 24 * 3600))
    .sign(key);
}
