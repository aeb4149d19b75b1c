import { sha256Hex } from '../core/index.js';

/**
 * A name-based UUID (RFC 9562 version 8: custom) from `name`: the same name gives the same id, so
 * an event made again from the same entry after a restart has the same identity.
 */
export function uuidFrom(name: string): string {
  const hex = sha256Hex(name).slice(0, 32).split('');
  hex[12] = '8';
  hex[16] = ((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
