import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** Sealed without associated data: opened still, re-sealed as {@link BOUND} when its row is next written. */
const LEGACY = 'v1';
/** Sealed with the registration's binding as associated data. */
const BOUND = 'v2';

/** A new signing secret: 32 random bytes as 64 hex characters. */
export function newSigningSecret(): string {
  return randomBytes(32).toString('hex');
}

/** The row a sealed secret belongs to: its value opens only with the same binding. */
export interface SecretBinding {
  readonly registrationId: string;
  readonly orgId: string;
}

/** The associated data of a binding: labelled, newline-separated (neither id holds a newline). */
function associatedData(binding: SecretBinding): Buffer {
  return Buffer.from(`webhook-registration-secret\norg:${binding.orgId}\nregistration:${binding.registrationId}`, 'utf8');
}

/**
 * Encrypts signing secrets at rest with AES-256-GCM: a database dump alone cannot forge
 * signatures. Stored as `v2.<iv>.<tag>.<ciphertext>` (base64url parts), authenticated with the
 * registration id and organization id as associated data, so a sealed value copied into another
 * row (or another organization's) does not open there. `v1.` values, sealed before the binding,
 * open without associated data until their row is written again ({@link isBound}).
 */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('SecretBox needs a 32-byte key');
  }

  seal(secret: string, binding: SecretBinding): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(associatedData(binding));
    const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return [BOUND, ...[iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString('base64url'))].join('.');
  }

  /** The secret, or an error when the value is malformed, tampered with, of another key or (`v2`) of another row. */
  open(sealed: string, binding: SecretBinding): string {
    const [version, iv, tag, ciphertext, extra] = sealed.split('.');
    if ((version !== BOUND && version !== LEGACY) || !iv || !tag || ciphertext === undefined || extra !== undefined) {
      throw new Error('sealed secret has an unknown format');
    }
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    if (version === BOUND) decipher.setAAD(associatedData(binding));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }

  /** Whether a sealed value carries its row's binding (`v2`); a `v1` value is re-sealed when its row is written. */
  static isBound(sealed: string): boolean {
    return sealed.startsWith(`${BOUND}.`);
  }
}
