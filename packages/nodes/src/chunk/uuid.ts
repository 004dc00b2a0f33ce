import { randomFillSync } from 'node:crypto';

/**
 * Version 4 UUIDs for chunk ids, drawn from the system CSPRNG like `crypto.randomUUID()`, but
 * formatted a batch at a time: `randomUUID()` builds each id from about twenty concatenated pieces,
 * a rope of some 600 bytes that every chunk keeps alive until it is flattened, which made chunk ids
 * a third of the chunkers' garbage. Here one `latin1` decode yields a batch of ids and each id is a
 * 36-character slice of it.
 */

const BATCH = 256;
const UUID_LENGTH = 36;
const HEX = Buffer.from('0123456789abcdef', 'latin1');
// Byte offsets after which a dash goes: 8-4-4-4-12 hex digits.
const DASH_AFTER = new Set([3, 5, 7, 9]);

const entropy = Buffer.allocUnsafeSlow(16 * BATCH);
const ascii = Buffer.allocUnsafeSlow(UUID_LENGTH * BATCH);
let batch = '';
let next = BATCH;

function refill(): void {
  randomFillSync(entropy);
  let o = 0;
  for (let id = 0; id < BATCH; id++) {
    const base = id * 16;
    for (let b = 0; b < 16; b++) {
      let byte = entropy[base + b] as number;
      // RFC 9562: version 4 in the high nibble of byte 6, variant 10xx in byte 8.
      if (b === 6) byte = (byte & 0x0f) | 0x40;
      else if (b === 8) byte = (byte & 0x3f) | 0x80;
      ascii[o++] = HEX[byte >> 4] as number;
      ascii[o++] = HEX[byte & 0x0f] as number;
      if (DASH_AFTER.has(b)) ascii[o++] = 0x2d;
    }
  }
  batch = ascii.toString('latin1');
  next = 0;
}

/**
 * A random (version 4) UUID, lower-case and dashed like `crypto.randomUUID()`.
 *
 * @example
 * ```ts
 * const id = randomUuid(); // '3b241101-e2bb-4255-8caf-4136c566a962'
 * ```
 */
export function randomUuid(): string {
  if (next === BATCH) refill();
  const start = next * UUID_LENGTH;
  next++;
  return batch.slice(start, start + UUID_LENGTH);
}
