import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newRecordId } from './ids.js';

describe('record ids', () => {
  it('are UUIDs of version 7 whose order is the order they were made in, even within a millisecond', () => {
    const ids = Array.from({ length: 2_000 }, () => newRecordId());
    for (const id of ids) assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.deepEqual([...ids].sort(), ids);
    assert.equal(new Set(ids).size, ids.length);
  });

  it('carry the time they were made in their first 48 bits', () => {
    const before = Date.now();
    const id = newRecordId();
    const after = Date.now();
    const millis = Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16);
    assert.ok(millis >= before && millis <= after, `${millis} within ${before}..${after}`);
  });
});
