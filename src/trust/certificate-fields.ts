import {
  type DerElement,
  DerError,
  expectTag,
  readChildren,
  readSingle,
  readUnsignedInteger,
} from './der-reader.js';

/** The fields canonry reads from a certificate's DER beyond what node:crypto exposes. */
export interface CertificateFields {
  /** The serial number as an unsigned integer. */
  readonly serial: bigint;
  /** The encoded subject Name, compared byte for byte with a revocation list's issuer. */
  readonly subject: Buffer;
  readonly notBefore: Date;
  readonly notAfter: Date;
}

/** Formats a serial number as lowercase hex with an even number of digits. */
export function serialHex(serial: bigint): string {
  const hex = serial.toString(16);
  return hex.length % 2 ? `0${hex}` : hex;
}

const UTC_TIME = /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/;
const GENERALIZED_TIME = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/;

/** Parses an X.509 Time (UTCTime or GeneralizedTime, seconds precision, `Z`). */
export function readTime(element: DerElement | undefined, what: string): Date {
  if (element === undefined) throw new DerError(`missing ${what}`);
  const text = element.content.toString('latin1');
  const pattern = element.tag === 0x17 ? UTC_TIME : element.tag === 0x18 ? GENERALIZED_TIME : null;
  const match = pattern?.exec(text);
  if (!match) throw new DerError(`${what} is not a valid time`);
  const [y, month, day, hour, minute, second] = match.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  // RFC 5280 §4.1.2.5.1: two-digit years 50–99 are 19xx, 00–49 are 20xx.
  const year = element.tag === 0x17 ? (y < 50 ? 2000 + y : 1900 + y) : y;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  const valid = date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  if (!valid || hour > 23 || minute > 59 || second > 59) {
    throw new DerError(`${what} is not a valid date`);
  }
  return date;
}

/** Reads serial, subject and validity from certificate DER; throws {@link DerError} if malformed. */
export function readCertificateFields(der: Buffer): CertificateFields {
  const [tbs] = readChildren(readSingle(der, 0x30, 'certificate'));
  const fields = readChildren(expectTag(tbs, 0x30, 'tbsCertificate'));
  if (fields[0]?.tag === 0xa0) fields.shift();
  const [serial, , , validity, subject] = fields;
  const [notBefore, notAfter] = readChildren(expectTag(validity, 0x30, 'validity'));
  return {
    serial: readUnsignedInteger(serial, 'serial number'),
    subject: expectTag(subject, 0x30, 'subject').encoded,
    notBefore: readTime(notBefore, 'notBefore'),
    notAfter: readTime(notAfter, 'notAfter'),
  };
}
