import * as crypto from 'node:crypto';

/** RFC 4122 namespace for DNS names, as Python's `uuid.NAMESPACE_DNS`. */
const NAMESPACE_DNS = Buffer.from('6ba7b8109dad11d180b400c04fd430c8', 'hex');

// One-shot hashing (Node 20.12+) skips creating a Hash object per id, most of the cost of a short
// input; older runtimes go through createHash.
const oneShot = (crypto as { hash?: (algorithm: string, data: Uint8Array, encoding: 'hex') => string }).hash;
// Namespace followed by the name's UTF-8 bytes, for names of up to (length - 16) / 3 units.
const scratch = Buffer.allocUnsafeSlow(1024);
const VARIANT = '89ab89ab89ab89ab';

// SHA-1 of namespace + name, in hex.
function sha1Hex(name: string, namespace: Buffer): string {
  if (oneShot && namespace.length === 16 && 16 + 3 * name.length <= scratch.length) {
    namespace.copy(scratch, 0);
    const n = scratch.write(name, 16, 'utf8');
    return oneShot('sha1', scratch.subarray(0, 16 + n), 'hex');
  }
  return crypto.createHash('sha1').update(namespace).update(name, 'utf8').digest('hex');
}

/** RFC 4122 version-5 UUID (SHA-1 of namespace + name), as Python's `uuid.uuid5`. */
export function uuid5(name: string, namespace: Buffer = NAMESPACE_DNS): string {
  const h = sha1Hex(name, namespace);
  // Version 5 in the 13th digit, variant 10xx in the 17th.
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${VARIANT[parseInt(h[16]!, 16)]}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * The `_id` of an element's search document: `uuid5(NAMESPACE_DNS, element_id + record_id)`, as the
 * `unstructured-ingest`'s stager. Deterministic, so re-writing the same element overwrites rather than duplicates.
 */
export function documentId(elementId: string, recordId: string): string {
  return uuid5(`${elementId}${recordId}`);
}
