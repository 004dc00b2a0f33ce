/**
 * Version 4 UUIDs for element and chunk ids, drawn from the system CSPRNG like `crypto.randomUUID()`
 * but made a batch at a time: one random fill and one hex encoding per 1,024 ids, each id a
 * 36-character slice of the batch: about five times cheaper per id than `randomUUID()`, which is a
 * noticeable share of forming a small chunk, and of the two ids each element of a long document gets.
 */

// node:crypto is fetched with the first batch, not imported: an ES import builds its whole namespace
// (Web Crypto included) in every process that loads the element model, ids or not.
const randomFillSync = (buffer: Buffer): Buffer => process.getBuiltinModule('node:crypto').randomFillSync(buffer);

const BATCH = 1024;
const UUID_LENGTH = 36;
const DASH = 0x2d;
// Hex digit -> variant digit (10xx): '8', '9', 'a' or 'b' from the digit's two low bits.
const VARIANT = new Uint8Array(128);
for (const d of '0123456789abcdef') VARIANT[d.charCodeAt(0)] = '89ab'.charCodeAt(parseInt(d, 16) & 3);

// 18 random bytes per id are hex-encoded into its 36 characters; then the four dashes,
// the version digit and the variant digit are written over six of them. What is left are 30
// random hex digits and 2 random variant bits: the 122 random bits of a version 4 UUID.
let entropy: Buffer | undefined;
let ascii: Buffer | undefined;
let batch = '';
let next = BATCH;

function refill(): void {
  entropy ??= Buffer.allocUnsafeSlow((UUID_LENGTH / 2) * BATCH);
  ascii ??= Buffer.allocUnsafeSlow(UUID_LENGTH * BATCH);
  randomFillSync(entropy);
  ascii.write(entropy.toString('hex'), 0, 'latin1');
  for (let o = 0; o < ascii.length; o += UUID_LENGTH) {
    ascii[o + 8] = DASH;
    ascii[o + 13] = DASH;
    ascii[o + 14] = 0x34; // '4': version 4 (RFC 9562)
    ascii[o + 18] = DASH;
    ascii[o + 19] = VARIANT[ascii[o + 19] as number] as number;
    ascii[o + 23] = DASH;
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
