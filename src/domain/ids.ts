/**
 * Ids of the rows the service writes most (payments, status records, events, jobs, webhook attempts, bank-call
 * records): UUIDv7 (RFC 9562). Their first 48 bits are the time of creation in milliseconds, so a new row's key
 * lands at the end of its indexes instead of on a random page of each: with a million payments, random (v4) keys
 * made every creation read and rewrite pages all over the indexes (docs/performance.md). The other 74 bits are
 * random. These ids identify; they are never secrets (the payer's flow token and client secrets stay wholly random),
 * and the time they carry is the record's `createdAt`, which the API returns anyway.
 */
import { v7 } from 'uuid';

export function newRecordId(): string {
  return v7();
}
