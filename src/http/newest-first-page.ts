/**
 * A page of a newest-first list (payments, payment links): read with one row more than the page, so whether that row
 * exists decides between a next cursor and null, and continued from the (createdAt, id) of the page's last item,
 * carried in a cursor only this list and this client can use (src/http/cursor.ts).
 */
import { INVALID_CURSOR_MESSAGE, type CursorCodec, type CursorList } from './cursor.js';
import { ValidationError } from './errors.js';

/** Where the next page of a newest-first list starts: after this item of the previous page. */
export interface NewestFirstPosition {
  readonly createdAt: string;
  readonly id: string;
}

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The position a cursor of `list` carries; a cursor we did not give this client for this list answers 400. */
export function newestFirstPosition(cursors: CursorCodec, list: CursorList, clientId: string, cursor: string): NewestFirstPosition {
  const position = cursors.decode(list, clientId, cursor);
  const createdAt = position?.createdAt;
  const id = position?.id;
  if (typeof createdAt !== 'string' || !ISO_UTC.test(createdAt) || typeof id !== 'string' || !UUID.test(id)) {
    throw new ValidationError([INVALID_CURSOR_MESSAGE('cursor')]);
  }
  return { createdAt, id };
}

/** The page of `found` (read with `limit + 1` rows) and the cursor after its last item, or null at the list's end. */
export function newestFirstPage<T extends NewestFirstPosition>(
  found: readonly T[],
  limit: number,
  cursors: CursorCodec,
  list: CursorList,
  clientId: string,
): { readonly page: T[]; readonly nextCursor: string | null } {
  const page = found.slice(0, limit);
  const last = page[page.length - 1];
  return {
    page,
    nextCursor:
      found.length > limit && last !== undefined ? cursors.encode(list, clientId, { createdAt: last.createdAt, id: last.id }) : null,
  };
}
