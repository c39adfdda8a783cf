import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';

export interface TestClaims {
  readonly sub?: string;
  readonly org?: string;
  readonly role?: string;
  readonly iss?: string;
  readonly aud?: string;
  /** Seconds from now; negative for an expired token. */
  readonly expiresIn?: number;
}

/** A signing key the gateway under test trusts, and tokens made with it. */
export class TestAuth {
  readonly issuer = 'service-test';
  readonly audience = 'service-api';
  private readonly privateKey: KeyObject;
  readonly publicKeyPem: string;

  /** A new key, or the one of `privateKeyPem` (a gateway shared by several test files trusts one). */
  constructor(privateKeyPem?: string) {
    this.privateKey = privateKeyPem === undefined ? generateKeyPairSync('ed25519').privateKey : createPrivateKey(privateKeyPem);
    this.publicKeyPem = createPublicKey(this.privateKey).export({ type: 'spki', format: 'pem' }).toString();
  }

  /** The signing key as PKCS#8 PEM, to hand to another process. */
  privateKeyPem(): string {
    return this.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  }

  /** Gateway variables that make it trust this key. */
  gatewayEnv(): Record<string, string> {
    return { AUTH_PUBLIC_KEY: this.publicKeyPem, AUTH_ISSUER: this.issuer, AUTH_AUDIENCE: this.audience };
  }

  token(claims: TestClaims = {}, key: KeyObject = this.privateKey): Promise<string> {
    const body: Record<string, unknown> = { org: claims.org ?? 'org_test', role: claims.role ?? 'owner' };
    for (const name of ['org', 'role'] as const) if (name in claims && claims[name] === undefined) delete body[name];
    return new SignJWT(body)
      .setProtectedHeader({ alg: 'EdDSA', typ: 'JWT' })
      .setSubject(claims.sub ?? 'user_test')
      .setIssuer(claims.iss ?? this.issuer)
      .setAudience(claims.aud ?? this.audience)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + (claims.expiresIn ?? 3600))
      .sign(key);
  }
}
