/**
 * Page cursors of the list endpoints (docs/api-decisions.md, "Lists and the event feed"): opaque to clients and
 * tamper-evident. A cursor is `<payload>.<mac>`: the payload (base64url JSON) says where the next page starts, the
 * MAC (HMAC-SHA256, 128 bits) binds it to the list it came from and to the client it was given to. An altered
 * cursor, one of another list or one given to another client answers 400, not a page of something unexpected.
 *
 * The MAC key is derived from the operator key ring (`SECRET_KEYS`): the active key signs, every key of the ring
 * verifies, so cursors survive a key rotation for as long as the old key stays in the ring.
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

const MAC_BYTES = 16;
const CURSOR = /^([A-Za-z0-9_-]{1,512})\.([A-Za-z0-9_-]{22})$/;

/** The one message for a cursor we did not give out, or not for this list and caller (`<field> <rule>`). */
export const INVALID_CURSOR_MESSAGE = (field: string): string => `${field} must be a cursor this list returned to you, unchanged`;

/** The lists whose cursors must not be swapped for one another. */
export type CursorList = 'payments' | 'payment-links' | 'events';

export class CursorCodec {
  private readonly macKeys: readonly Buffer[];

  /** `keys`: the operator key ring's key material, active key first. */
  constructor(keys: readonly Buffer[]) {
    if (keys.length === 0) throw new Error('A cursor codec needs at least one key');
    this.macKeys = keys.map((key) => Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), 'openpis/page-cursor/v1', 32)));
  }

  encode(list: CursorList, clientId: string, position: Readonly<Record<string, string | number>>): string {
    const payload = Buffer.from(JSON.stringify(position), 'utf8').toString('base64url');
    const [activeKey] = this.macKeys;
    if (activeKey === undefined) throw new Error('A cursor codec needs at least one key');
    return `${payload}.${mac(activeKey, list, clientId, payload).toString('base64url')}`;
  }

  /** The position a cursor carries, or `undefined` when it is malformed, altered, or not this list's or client's. */
  decode(list: CursorList, clientId: string, cursor: string): Readonly<Record<string, unknown>> | undefined {
    const match = CURSOR.exec(cursor);
    if (match === null) return undefined;
    const [, payload = '', sent = ''] = match;
    const sentMac = Buffer.from(sent, 'base64url');
    if (!this.macKeys.some((key) => timingSafeEqual(mac(key, list, clientId, payload), sentMac))) return undefined;
    try {
      const position: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      return typeof position === 'object' && position !== null && !Array.isArray(position)
        ? (position as Record<string, unknown>)
        : undefined;
    } catch {
      return undefined;
    }
  }
}

function mac(key: Buffer, list: CursorList, clientId: string, payload: string): Buffer {
  return createHmac('sha256', key).update(`${list}\n${clientId}\n${payload}`, 'utf8').digest().subarray(0, MAC_BYTES);
}
