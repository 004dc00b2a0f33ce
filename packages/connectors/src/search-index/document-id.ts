import { createHash } from 'node:crypto';

/** RFC 4122 namespace for DNS names, as Python's `uuid.NAMESPACE_DNS`. */
const NAMESPACE_DNS = Buffer.from('6ba7b8109dad11d180b400c04fd430c8', 'hex');

/** RFC 4122 version-5 UUID (SHA-1 of namespace + name), as Python's `uuid.uuid5`. */
export function uuid5(name: string, namespace: Buffer = NAMESPACE_DNS): string {
  const hash = createHash('sha1').update(namespace).update(name, 'utf8').digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The `_id` of an element's search document: `uuid5(NAMESPACE_DNS, element_id + record_id)`, as the
 * reference stager. Deterministic, so re-writing the same element overwrites rather than duplicates.
 */
export function documentId(elementId: string, recordId: string): string {
  return uuid5(`${elementId}${recordId}`);
}
