/**
 * Development roots (TCP/AP §10: a development or shared root is not production-grade attestation).
 * A root canonry mints on the server, whose private key sits in the data directory, says so in its
 * own subject, so a relying party that only holds the pinned certificate can tell.
 */
import { OID } from './asn1-constants.js';
import {
  DerError,
  expectTag,
  readChildren,
  readElement,
  readObjectIdentifier,
} from './der-reader.js';
import { parseCertificate } from './parsed-certificate.js';

/** The subject common name of a root minted by the server (`serve`, `keys init`). */
export const DEVELOPMENT_ROOT_NAME = 'canonry development root';
/**
 * The name every root had before offline roots existed. All of them were minted by the server with
 * their key beside the issuer's, so a root with this name is a development root.
 */
export const LEGACY_ROOT_NAME = 'canonry root';
/** The subject common name of a root created on an offline machine (`keys offline init`). */
export const OFFLINE_ROOT_NAME = 'canonry offline root';

/** What `serve`, `keys list` and `verify` say about a development root. */
export const DEVELOPMENT_ROOT_WARNING =
  'development root: its private key is in the data directory; events it certifies are not ' +
  'production-grade attestation (TCP/AP §10). For production, create the root offline: ' +
  'see "Production keys and scale-out" in the README.';

/** The subject common name of issuer number `n`. */
export function issuerCommonName(n: number): string {
  return `canonry issuer ${n}`;
}

const STRING_TAGS = new Set([0x0c, 0x13, 0x14, 0x16, 0x1e]);

function stringValue(tag: number, content: Buffer): string {
  if (tag === 0x0c) return content.toString('utf8');
  if (tag !== 0x1e) return content.toString('latin1');
  // BMPString is big-endian UCS-2.
  if (content.length % 2 !== 0) throw new DerError('odd BMPString');
  return Buffer.from(content).swap16().toString('utf16le');
}

/** Every common-name value in an encoded Name, as text; throws {@link DerError} when malformed. */
function commonNames(subject: Buffer): string[] {
  const names: string[] = [];
  for (const rdn of readChildren(expectTag(readElement(subject), 0x30, 'Name'))) {
    for (const attribute of readChildren(expectTag(rdn, 0x31, 'RDN'))) {
      const [type, value] = readChildren(expectTag(attribute, 0x30, 'attribute'));
      if (readObjectIdentifier(type, 'attribute type') !== OID.commonName) continue;
      if (value === undefined || !STRING_TAGS.has(value.tag)) throw new DerError('bad CN value');
      names.push(stringValue(value.tag, value.content));
    }
  }
  return names;
}

/**
 * True when an encoded subject Name marks a development root: a common name that mentions
 * "development" (any case), or the legacy `canonry root`. Errs towards true on a malformed Name.
 */
export function isDevelopmentSubject(subject: Buffer): boolean {
  try {
    return commonNames(subject).some(
      (cn) => /development/i.test(cn) || cn.trim().toLowerCase() === LEGACY_ROOT_NAME,
    );
  } catch {
    return true;
  }
}

/**
 * True when a root certificate (PEM) is a development root, from the certificate alone, so
 * offline verifiers can tell. False for text that is not a certificate (it pins nothing).
 */
export function isDevelopmentRoot(rootPem: string): boolean {
  const root = parseCertificate(rootPem);
  return root !== undefined && isDevelopmentSubject(root.fields.subject);
}
