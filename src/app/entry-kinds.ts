import { CANON_ENTRY_KINDS } from '../canon/index.js';
import { ADMISSION_ENTRY, EVOLUTION_ENTRY_KINDS, PROMOTION_ENTRY } from '../evolution/index.js';
import { type EntryKind, EntryKinds } from '../journal/index.js';
import { RELAY_ENTRY_KINDS } from '../relay/index.js';
import { VERDICT, VERDICTS } from './journal-audit-sink.js';
import { PROTOCOL } from './protocol-store.js';
import { TOKEN_ISSUED, TOKEN_REVOKED } from './token-recorder.js';

/**
 * Every kind of entry the runtime journals, each declared next to the code that writes it (canon's,
 * the protocol registry's, the kernel audit's, auth's token events): the journal refuses any other
 * and checks every body against its kind, on append and on replay.
 */
export function runtimeEntryKinds(): EntryKinds {
  return new EntryKinds([
    ...CANON_ENTRY_KINDS,
    PROTOCOL,
    VERDICT,
    VERDICTS,
    TOKEN_ISSUED,
    TOKEN_REVOKED,
    ...RELAY_ENTRY_KINDS,
    ...EVOLUTION_ENTRY_KINDS,
    PROMOTION_ENTRY as EntryKind<unknown>,
    ADMISSION_ENTRY as EntryKind<unknown>,
  ]);
}
