import { createHash } from 'node:crypto';
import type { CanaryScope } from './promotion-types.js';

/**
 * Whether a session is in a promotion's canary: every session of a named project is; otherwise the
 * first 8 bytes of SHA-256 over `<promotion_id>\n<session_id>`, read as a fraction of 2^64, fall
 * below the share. Deterministic: the same session always lands on the same arm, and different
 * promotions split sessions independently.
 */
export function inCanary(
  scope: CanaryScope,
  promotionId: string,
  where: { readonly project: string; readonly session_id: string },
): boolean {
  if (scope.projects.includes(where.project)) return true;
  if (scope.share <= 0) return false;
  if (scope.share >= 1) return true;
  const digest = createHash('sha256').update(`${promotionId}\n${where.session_id}`).digest();
  return Number(digest.readBigUInt64BE(0)) / 2 ** 64 < scope.share;
}
