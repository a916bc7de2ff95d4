/**
 * The state modules hand out their records (payments, consents, authorisations, sessions) read-only, so that
 * routes and pages can only change them through the state's methods; inside a state module, `writable` is the way
 * back to the record it created as a plain mutable object.
 */
export type Writable<T> = { -readonly [Key in keyof T]: T[Key] };

export function writable<T>(record: T): Writable<T> {
  return record;
}
