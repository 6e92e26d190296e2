import { randomFillSync } from 'node:crypto';
import { v7 as uuidv7, validate as isUuidString } from 'uuid';

const POOL_BYTES = 16 * 1024;
const pool = Buffer.alloc(POOL_BYTES);
let poolOffset = POOL_BYTES;

/**
 * Bytes from a pooled CSPRNG buffer: a bulk acceptance makes tens of thousands of ids and tokens,
 * and one `getRandomValues` call each (what uuid does) cost more than building the rest of the row.
 */
function pooledBytes(bytes: number): Buffer {
  if (poolOffset + bytes > POOL_BYTES) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const slice = pool.subarray(poolOffset, poolOffset + bytes);
  poolOffset += bytes;
  return slice;
}

/** Every row id is a UUIDv7: time-ordered, so keyset pagination on the id is newest-first by time. */
export function newId(): string {
  return uuidv7({ random: pooledBytes(16) });
}

export function isUuid(value: string): boolean {
  return isUuidString(value);
}

/** Random hex (tokens that only need to be unguessable, such as return-path tokens). */
export function randomHex(bytes: number): string {
  return pooledBytes(bytes).toString('hex');
}
