import { v7 as uuidv7, validate as isUuidString } from 'uuid';

/** Every row id is a UUIDv7: time-ordered, so keyset pagination on the id is newest-first by time. */
export function newId(): string {
  return uuidv7();
}

export function isUuid(value: string): boolean {
  return isUuidString(value);
}
