import type { KeyObject } from 'node:crypto';
import { fail, ok, type Result } from '../core/index.js';
import { ED25519_ALGORITHM, OID, PEM_LABEL } from './asn1-constants.js';
import { readTime, serialHex } from './certificate-fields.js';
import { readExtensions } from './der-extensions.js';
import {
  type DerElement,
  DerError,
  expectTag,
  readChildren,
  readOctetAlignedBits,
  readSingle,
  readUnsignedInteger,
} from './der-reader.js';
import { verifyEd25519 } from './ed25519.js';
import { decodePem } from './pem.js';
import type { RevocationList, RevokedCertificate, TrustIssue } from './types.js';

/** The pinned root as a revocation list's only acceptable signer. */
export interface ListVerifier {
  publicKey: KeyObject;
  /** The root's encoded subject Name, which must equal the list's issuer. */
  subject: Buffer;
}

const TIME_TAGS = new Set([0x17, 0x18]);

function readEntries(element: DerElement | undefined): RevokedCertificate[] {
  if (element === undefined) return [];
  return readChildren(expectTag(element, 0x30, 'revokedCertificates')).map((entry) => {
    const [serial, date, extensions, extra] = readChildren(expectTag(entry, 0x30, 'revoked entry'));
    if (extensions !== undefined) readExtensions(extensions, []);
    if (extra !== undefined) throw new DerError('revoked entry has extra fields');
    return {
      serialNumber: serialHex(readUnsignedInteger(serial, 'revoked serial')),
      revokedAt: readTime(date, 'revocationDate'),
    };
  });
}

function readTbsCertList(tbs: DerElement, root: ListVerifier): Result<RevocationList, TrustIssue> {
  const fields = readChildren(tbs);
  if (readUnsignedInteger(fields.shift(), 'version') !== 1n) throw new DerError('not a v2 list');
  if (!expectTag(fields.shift(), 0x30, 'signature').encoded.equals(ED25519_ALGORITHM)) {
    throw new DerError('inner signature algorithm is not Ed25519');
  }
  if (!expectTag(fields.shift(), 0x30, 'issuer').encoded.equals(root.subject)) {
    return fail({
      code: 'CHAIN_INVALID',
      message: 'revocation list issuer is not the pinned root',
    });
  }
  const thisUpdate = readTime(fields.shift(), 'thisUpdate');
  if (fields[0] !== undefined && TIME_TAGS.has(fields[0].tag)) {
    readTime(fields.shift(), 'nextUpdate');
  }
  const entries = readEntries(fields[0]?.tag === 0x30 ? fields.shift() : undefined);
  const wrapper = expectTag(fields.shift(), 0xa0, 'crlExtensions');
  if (fields.length > 0) throw new DerError('unexpected fields after crlExtensions');
  const [inner, extra] = readChildren(wrapper);
  if (inner === undefined || extra !== undefined) {
    throw new DerError('crlExtensions has the wrong shape');
  }
  const extensions = readExtensions(inner, [OID.crlNumber, OID.authorityKeyIdentifier]);
  const numberValue = extensions.get(OID.crlNumber);
  if (numberValue === undefined) throw new DerError('missing CRL number');
  const number = readUnsignedInteger(readSingle(numberValue, 0x02, 'CRL number'), 'CRL number');
  return ok({ number, thisUpdate, entries });
}

/**
 * Parses a PEM X.509 CRL and accepts it only when its Ed25519 signature verifies with the pinned
 * root's key and its issuer is the root. Never throws: malformed input is INVALID_CERTIFICATE, a
 * list from any other signer is CHAIN_INVALID.
 */
export function readRevocationList(
  pem: string,
  root: ListVerifier,
): Result<RevocationList, TrustIssue> {
  const der = decodePem(pem, PEM_LABEL.revocationList);
  if (der === undefined) {
    return fail({ code: 'INVALID_CERTIFICATE', message: 'revocation list is not a PEM X509 CRL' });
  }
  try {
    const parts = readChildren(readSingle(der, 0x30, 'CertificateList'));
    const [tbs, algorithm, signatureBits] = parts;
    if (parts.length !== 3) throw new DerError('CertificateList has the wrong shape');
    if (!expectTag(algorithm, 0x30, 'signatureAlgorithm').encoded.equals(ED25519_ALGORITHM)) {
      throw new DerError('revocation list is not signed with Ed25519');
    }
    const signature = readOctetAlignedBits(signatureBits, 'signature');
    const signed = expectTag(tbs, 0x30, 'tbsCertList');
    // Nothing inside the list is trusted until the root's signature over it checks out.
    if (!verifyEd25519(root.publicKey, signed.encoded, signature)) {
      return fail({
        code: 'CHAIN_INVALID',
        message: 'revocation list is not signed by the pinned root',
      });
    }
    return readTbsCertList(signed, root);
  } catch (error) {
    const reason = error instanceof DerError ? error.message : 'unreadable';
    return fail({ code: 'INVALID_CERTIFICATE', message: `malformed revocation list: ${reason}` });
  }
}
