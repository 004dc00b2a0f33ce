import { Constructed, ObjectIdentifier, OctetString, Sequence, fromBER, type AsnType } from 'asn1js';

const SIGNED_DATA = '1.2.840.113549.1.7.2';

/** MIME types of S/MIME parts: a detached signature, and an opaque (enveloping) CMS structure. */
export const SMIME_SIGNATURE_TYPES: ReadonlySet<string> = new Set(['application/pkcs7-signature', 'application/x-pkcs7-signature']);
export const SMIME_CONTAINER_TYPES: ReadonlySet<string> = new Set(['application/pkcs7-mime', 'application/x-pkcs7-mime']);

const children = (node: AsnType | undefined): AsnType[] =>
  node instanceof Sequence || node instanceof Constructed ? (node.valueBlock.value as AsnType[]) : [];

/**
 * The content a CMS `SignedData` structure (an S/MIME `smime.p7m`, or a `.p7s` saved in DER) signs:
 * for S/MIME, a MIME entity. Undefined for DER that is not signed data with its content enclosed
 * (encrypted data, a detached signature, or no DER at all). The signature itself is not verified:
 * partitioning reads what was signed; checking who signed it is the mail client's work.
 */
export function signedContent(der: Uint8Array): Uint8Array | undefined {
  const parsed = fromBER(der);
  // A structure cut short, or followed by other bytes, is damaged even where its content survived.
  if (parsed.offset !== der.byteLength) return undefined;
  const [type, explicit] = children(parsed.result);
  if (!(type instanceof ObjectIdentifier) || type.valueBlock.toString() !== SIGNED_DATA) return undefined;
  // ContentInfo [0] -> SignedData { version, digestAlgorithms, encapContentInfo { type, [0] content } }
  const encapsulated = children(children(explicit)[0])[2];
  const content = children(children(encapsulated)[1])[0];
  return content instanceof OctetString ? new Uint8Array(content.getValue()) : undefined;
}
