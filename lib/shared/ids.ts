import { randomFillSync } from 'node:crypto';
import { v7 as uuidv7, validate as isUuidString } from 'uuid';

/** Every row id is a UUIDv7: time-ordered, so keyset pagination on the id is newest-first by time. */
export function newId(): string {
  return uuidv7();
}

export function isUuid(value: string): boolean {
  return isUuidString(value);
}

const POOL_BYTES = 8192;
const pool = Buffer.alloc(POOL_BYTES);
let poolOffset = POOL_BYTES;

/**
 * Random hex from a pooled CSPRNG buffer: a bulk acceptance draws thousands of tokens, and one
 * `randomBytes` call each cost more than the rest of building the row.
 */
export function randomHex(bytes: number): string {
  if (poolOffset + bytes > POOL_BYTES) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const value = pool.toString('hex', poolOffset, poolOffset + bytes);
  poolOffset += bytes;
  return value;
}
