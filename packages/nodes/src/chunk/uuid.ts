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
// Two ASCII hex digits per byte value, as one 16-bit little-endian unit.
const HEX_PAIRS = new Uint16Array(256);
for (let b = 0; b < 256; b++) {
  const digits = b.toString(16).padStart(2, '0');
  HEX_PAIRS[b] = digits.charCodeAt(0) | (digits.charCodeAt(1) << 8);
}

const entropy = Buffer.allocUnsafeSlow(16 * BATCH);
const ascii = Buffer.allocUnsafeSlow(UUID_LENGTH * BATCH);
let batch = '';
let next = BATCH;

// Writes byte `b` as two hex digits at `ascii[o]`.
function hex(o: number, b: number): void {
  const pair = HEX_PAIRS[b] as number;
  ascii[o] = pair & 0xff;
  ascii[o + 1] = pair >> 8;
}

function refill(): void {
  randomFillSync(entropy);
  for (let id = 0; id < BATCH; id++) {
    const e = id * 16;
    let o = id * UUID_LENGTH;
    for (let b = 0; b < 16; b++) {
      let byte = entropy[e + b] as number;
      // RFC 9562: version 4 in the high nibble of byte 6, variant 10xx in byte 8.
      if (b === 6) byte = (byte & 0x0f) | 0x40;
      else if (b === 8) byte = (byte & 0x3f) | 0x80;
      hex(o, byte);
      o += 2;
      // 8-4-4-4-12 digits: a dash after bytes 3, 5, 7 and 9.
      if (b === 3 || b === 5 || b === 7 || b === 9) ascii[o++] = 0x2d;
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
