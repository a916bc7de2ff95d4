/**
 * Secrets at rest (docs/adr/0005-secrets-at-rest.md): values we must be able to read back (webhook signing
 * secrets, the payer's flow token) are sealed with AES-256-GCM under an operator key ring before they reach the
 * database. The first key of the ring seals; every key of the ring opens, so an old key stays usable until
 * `openpis secrets reencrypt` has re-sealed everything under the new one.
 *
 * Sealed form: `v1.<kid>.<iv>.<ciphertext+tag>` (iv and ciphertext base64url). The row's context (table, column
 * and row id) is bound as associated data, so a sealed value copied to another row or column does not open.
 * Depends on nothing in the project, so that every layer can import it.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;

export interface SecretKey {
  /** Names the key in every value it sealed, so the ring knows which key opens it. */
  readonly id: string;
  /** 32 bytes. */
  readonly key: Buffer;
}

export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

/**
 * Parses `kid1:<base64 32 bytes>,kid0:<base64 32 bytes>` (first = active). Throws a SecretBoxError naming the
 * first problem; never echoes key material.
 */
export function parseSecretKeys(raw: string): SecretKey[] {
  const keys: SecretKey[] = [];
  for (const [index, entry] of raw
    .split(',')
    .map((part) => part.trim())
    .entries()) {
    const separator = entry.indexOf(':');
    const id = separator < 0 ? '' : entry.slice(0, separator);
    const material = separator < 0 ? '' : entry.slice(separator + 1);
    if (!KEY_ID.test(id)) {
      throw new SecretBoxError(`key ${index + 1} must be <id>:<base64 key> with an id of letters, digits, - or _ (at most 32)`);
    }
    if (keys.some((key) => key.id === id)) throw new SecretBoxError(`key id ${id} is listed twice`);
    const key = Buffer.from(material, 'base64');
    if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(material) || key.length !== KEY_BYTES) {
      throw new SecretBoxError(`key ${id} must be exactly ${KEY_BYTES} bytes, base64-encoded (got ${key.length} bytes)`);
    }
    keys.push({ id, key });
  }
  if (keys.length === 0) throw new SecretBoxError('at least one key is needed');
  return keys;
}

/** A new key ring setting with one fresh key: `<kid>:<base64>`. */
export function generateSecretKeysSetting(id = `k${new Date().toISOString().slice(0, 10).replaceAll('-', '')}`): string {
  return `${id}:${randomBytes(KEY_BYTES).toString('base64')}`;
}

/** How every sealed value begins, whatever its key; a plain value never does (it has no dot). */
export const SEALED_PREFIX = `${VERSION}.`;

/** Is this stored value in sealed form (as opposed to a plain value written before sealing existed)? */
export function isSealed(value: string): boolean {
  return value.startsWith(SEALED_PREFIX) && value.split('.').length === 4;
}

export class SecretBox {
  private readonly active: SecretKey;
  private readonly byId: ReadonlyMap<string, SecretKey>;

  constructor(keys: readonly SecretKey[]) {
    const [active] = keys;
    if (active === undefined) throw new SecretBoxError('at least one key is needed');
    for (const key of keys) {
      if (key.key.length !== KEY_BYTES) throw new SecretBoxError(`key ${key.id} must be exactly ${KEY_BYTES} bytes`);
    }
    this.active = active;
    this.byId = new Map(keys.map((key) => [key.id, key]));
  }

  get activeKeyId(): string {
    return this.active.id;
  }

  /** Seals `plain` for `context` (e.g. `clients.webhook_secret:<client id>`) under the active key. */
  seal(plain: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.active.key, iv);
    cipher.setAAD(associatedData(this.active.id, context));
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return [VERSION, this.active.id, iv.toString('base64url'), sealed.toString('base64url')].join('.');
  }

  /** Opens a value sealed for `context`; throws a SecretBoxError for another context, a changed value or an unknown key. */
  open(sealed: string, context: string): string {
    const [version, keyId, ivText, bodyText, ...rest] = sealed.split('.');
    if (version !== VERSION || keyId === undefined || ivText === undefined || bodyText === undefined || rest.length > 0) {
      throw new SecretBoxError(`a stored secret for ${context} is not in sealed form`);
    }
    const key = this.byId.get(keyId);
    if (key === undefined) {
      throw new SecretBoxError(`a stored secret for ${context} was sealed with key ${keyId}, which is not in SECRET_KEYS`);
    }
    const iv = Buffer.from(ivText, 'base64url');
    const body = Buffer.from(bodyText, 'base64url');
    if (iv.length !== IV_BYTES || body.length < TAG_BYTES) throw new SecretBoxError(`a stored secret for ${context} is malformed`);
    try {
      const decipher = createDecipheriv('aes-256-gcm', key.key, iv);
      decipher.setAAD(associatedData(keyId, context));
      decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
      return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretBoxError(
        `a stored secret for ${context} does not open with key ${keyId} (wrong key, altered value or another row's value)`,
      );
    }
  }

  /** How every value sealed under the active key begins (what need not be sealed again). */
  get activeSealedPrefix(): string {
    return `${SEALED_PREFIX}${this.active.id}.`;
  }

  /** Was this value sealed with a key other than the active one (or not sealed at all)? Then reencrypt re-seals it. */
  needsReseal(stored: string): boolean {
    return !isSealed(stored) || stored.split('.')[1] !== this.active.id;
  }
}

function associatedData(keyId: string, context: string): Buffer {
  return Buffer.from(`openpis-secret-box/${VERSION}/${keyId}/${context}`, 'utf8');
}
