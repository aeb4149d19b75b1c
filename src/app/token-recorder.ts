import type { TokenRecorder } from '../auth/index.js';
import type { Journal } from '../journal/index.js';

/**
 * Journals a token's issuance or revocation in the token's project, in one transaction with the
 * token table's write: the entry carries the token id, principal and role — never the secret or its
 * hash — and a crash leaves both or neither.
 */
export function journalTokenRecorder(journal: Journal): TokenRecorder {
  return async ({ action, info }, { check, write }) => {
    await journal.append(
      info.project,
      {
        kind: `auth.token.${action}`,
        body: { token_id: info.token_id, principal: info.principal, role: info.role },
        actor: 'operator',
        authority: { system: 'auth' },
      },
      { precondition: check, effects: write },
    );
  };
}
