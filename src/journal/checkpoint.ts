import { type ContentHash, fail, isContentHash, ok, type Result } from '../core/index.js';
import {
  type DocumentIssue,
  type SignedDocument,
  type Signer,
  signDocument,
  type TrustAnchor,
  verifyDocumentSignature,
} from '../trust/index.js';

/** The type tag of a signed journal checkpoint. */
export const CHECKPOINT_TYPE = 'canonry/journal-checkpoint';

/** What a checkpoint states: this project's chain had this head. */
export interface CheckpointClaims {
  readonly type: typeof CHECKPOINT_TYPE;
  readonly v: 1;
  readonly project: string;
  readonly seq: number;
  readonly head_hash: ContentHash;
}

/** A head signed by the keyring's issuer: one signature commits to every entry up to `seq`. */
export type Checkpoint = SignedDocument<CheckpointClaims>;

/** Signs `{ project, seq, head_hash }` with the issuer. */
export function signCheckpoint(
  project: string,
  seq: number,
  headHash: ContentHash,
  signer: Signer,
): Checkpoint {
  return signDocument({ type: CHECKPOINT_TYPE, v: 1, project, seq, head_hash: headHash }, signer);
}

/** Verifies a checkpoint's shape and signature against the pinned root; never throws. */
export function verifyCheckpoint(
  input: unknown,
  anchor: TrustAnchor,
): Result<Checkpoint, DocumentIssue | { code: 'INVALID_CHECKPOINT'; message: string }> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return fail({ code: 'INVALID_CHECKPOINT', message: 'a checkpoint must be an object' });
  }
  const c = input as Record<string, unknown>;
  const keys = Object.keys(c).sort().join(',');
  const shaped =
    keys === 'head_hash,issuer,project,seq,signature,type,v' &&
    c.type === CHECKPOINT_TYPE &&
    c.v === 1 &&
    typeof c.project === 'string' &&
    Number.isSafeInteger(c.seq) &&
    (c.seq as number) >= 0 &&
    isContentHash(c.head_hash);
  if (!shaped) return fail({ code: 'INVALID_CHECKPOINT', message: 'the checkpoint is malformed' });
  const signed = verifyDocumentSignature(c, anchor);
  return signed.ok ? ok(c as unknown as Checkpoint) : fail(signed.issues[0]!);
}
