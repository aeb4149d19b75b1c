import { TOKEN_ROLES, type TokenInfo, type TokenRecorder } from '../auth/index.js';
import { bodySchema, defineEntryKind, type Journal } from '../journal/index.js';

const { object, oneOf, text } = bodySchema;

/** What a token event journals: never the secret or its hash. */
export type TokenEventBody = Pick<TokenInfo, 'token_id' | 'principal' | 'role'>;

const tokenEvent = object({ token_id: text, principal: text, role: oneOf(TOKEN_ROLES) });
const summary = (b: TokenEventBody) => ({
  token_id: b.token_id,
  principal: b.principal,
  role: b.role,
});

/** A bearer token issued (auth's event, journaled with the token row). */
export const TOKEN_ISSUED = defineEntryKind<TokenEventBody>({
  kind: 'auth.token.issued',
  version: 1,
  schema: tokenEvent,
  summary,
});

/** A bearer token revoked. */
export const TOKEN_REVOKED = defineEntryKind<TokenEventBody>({
  kind: 'auth.token.revoked',
  version: 1,
  schema: tokenEvent,
  summary,
});

/**
 * Journals a token's issuance or revocation in the token's project, in one transaction with the
 * token table's write: the entry carries the token id, principal and role — never the secret or its
 * hash — and a crash leaves both or neither.
 */
export function journalTokenRecorder(journal: Journal): TokenRecorder {
  return async ({ action, info }, { check, write }) => {
    const kind = action === 'issued' ? TOKEN_ISSUED : TOKEN_REVOKED;
    await journal.append(
      info.project,
      kind.input(
        { token_id: info.token_id, principal: info.principal, role: info.role },
        { actor: 'operator', authority: { system: 'auth' } },
      ),
      { precondition: check, effects: write },
    );
  };
}
