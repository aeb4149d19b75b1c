import { fail, ok, type Result } from '../core/index.js';
import { OID } from './asn1-constants.js';
import { readExtensions } from './der-extensions.js';
import { DerError, expectTag, readChildren, readSingle } from './der-reader.js';
import type { TrustIssue } from './types.js';

/** Extensions an issuer certificate may mark critical. */
const UNDERSTOOD = [OID.basicConstraints, OID.keyUsage];

/** keyUsage bits (RFC 5280 §4.2.1.3) in the first content byte of the BIT STRING. */
const DIGITAL_SIGNATURE = 0x80;
const KEY_CERT_SIGN = 0x04;
const CRL_SIGN = 0x02;

/** The extensions of certificate DER by OID; throws {@link DerError}. */
function certificateExtensions(der: Buffer): Map<string, Buffer> {
  const [tbs] = readChildren(readSingle(der, 0x30, 'certificate'));
  const wrapper = readChildren(expectTag(tbs, 0x30, 'tbsCertificate')).find((f) => f.tag === 0xa3);
  if (wrapper === undefined) throw new DerError('no extensions');
  const [inner, extra] = readChildren(wrapper);
  if (inner === undefined || extra !== undefined) throw new DerError('extensions [3] shape');
  return readExtensions(inner, UNDERSTOOD);
}

/**
 * True when certificate DER asserts cA in basicConstraints. OpenSSL's own CA test also asks for
 * keyCertSign, so a certificate claiming cA with only digitalSignature passes it; this does not.
 */
export function assertsCertificateAuthority(der: Buffer): boolean {
  try {
    const value = certificateExtensions(der).get(OID.basicConstraints);
    if (value === undefined) return false;
    const [cA] = readChildren(readSingle(value, 0x30, 'basicConstraints'));
    return cA?.tag === 0x01 && cA.content[0] !== 0;
  } catch {
    return false;
  }
}

/**
 * Checks that certificate DER has the issuer profile canonry signs with: basicConstraints without
 * cA (CHAIN_INVALID otherwise), a keyUsage extension with digitalSignature and neither
 * keyCertSign nor cRLSign, and no critical extension canonry does not understand. The chain is
 * {@link checkIssuer}'s. Never throws.
 */
export function checkIssuerProfile(der: Buffer): Result<true, TrustIssue> {
  try {
    const extensions = certificateExtensions(der);
    if (!extensions.has(OID.basicConstraints)) throw new DerError('no basicConstraints');
    if (assertsCertificateAuthority(der)) {
      return fail({ code: 'CHAIN_INVALID', message: 'issuer is a CA certificate, not an issuer' });
    }
    const usage = extensions.get(OID.keyUsage);
    if (usage === undefined) throw new DerError('no keyUsage');
    const bits = readSingle(usage, 0x03, 'keyUsage').content;
    const first = bits.length >= 2 ? (bits[1] as number) : 0;
    if (!(first & DIGITAL_SIGNATURE) || first & (KEY_CERT_SIGN | CRL_SIGN)) {
      return fail({
        code: 'INVALID_CERTIFICATE',
        message: 'not an issuer certificate: keyUsage must be digitalSignature and not a CA usage',
      });
    }
    return ok(true);
  } catch (error) {
    const reason = error instanceof DerError ? error.message : 'unreadable';
    return fail({ code: 'INVALID_CERTIFICATE', message: `not an issuer certificate: ${reason}` });
  }
}
