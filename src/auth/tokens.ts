import { randomBytes } from 'node:crypto';
import { CanonryError, isProjectName, sha256Hex } from '../core/index.js';
import type { Queryable, Store } from '../store/index.js';

/** Roles a token can carry, from most to least powerful. */
export const TOKEN_ROLES = ['owner', 'editor', 'agent', 'tool', 'viewer'] as const;
export type TokenRole = (typeof TOKEN_ROLES)[number];

/** Token ids, as the store mints them (`tok_` and 12 hex digits); never the secret. */
export const TOKEN_ID = /^tok_[0-9a-f]{12}$/;

/** A token id from outside (a path or a flag), checked: INVALID_ARGUMENT unless {@link TOKEN_ID}. */
export function tokenIdArg(value: unknown): string {
  if (typeof value !== 'string' || !TOKEN_ID.test(value)) {
    throw new CanonryError('INVALID_ARGUMENT', 'a token id is tok_ and 12 hex digits', {
      field: 'token_id',
    });
  }
  return value;
}

/** The authenticated identity behind a token: all authority derives from this, never a payload. */
export interface AuthPrincipal {
  readonly id: string;
  readonly project: string;
  readonly role: TokenRole;
  readonly token_id: string;
}

/** A token's public description (never the secret). */
export interface TokenInfo {
  readonly token_id: string;
  readonly project: string;
  readonly principal: string;
  readonly role: TokenRole;
  readonly created_at: string;
  readonly revoked_at: string | null;
}

const PRINCIPAL = /^[A-Za-z0-9][A-Za-z0-9_.@-]{0,99}$/;

/**
 * Refuses a grant the store would refuse (INVALID_PROJECT, INVALID_ARGUMENT), before anything is
 * opened: a command checks its flags first and leaves nothing behind when one is wrong.
 */
export function checkTokenGrant(project: string, principal: string, role: string): TokenRole {
  if (!isProjectName(project)) throw new CanonryError('INVALID_PROJECT');
  if (!PRINCIPAL.test(principal)) {
    throw new CanonryError('INVALID_ARGUMENT', 'principal is 1–100 of letters, digits, _ . @ -');
  }
  if (!TOKEN_ROLES.includes(role as TokenRole)) {
    throw new CanonryError('INVALID_ARGUMENT', `role must be one of ${TOKEN_ROLES.join(', ')}`);
  }
  return role as TokenRole;
}
const TOKEN = /^cnr_[A-Za-z0-9_-]{43}$/;

/** What happened to a token, without its secret: what the app journals. */
export interface TokenEvent {
  readonly action: 'issued' | 'revoked';
  readonly info: TokenInfo;
}

/**
 * Records a token event atomically with its table write: `check` runs first and may refuse
 * (nothing written), then the event is recorded and `write` changes the token table in the same
 * transaction. The app journals the event; without a recorder both run in a plain transaction.
 */
export type TokenRecorder = (
  event: TokenEvent,
  steps: {
    readonly check: (tx: Queryable) => Promise<void>;
    readonly write: (tx: Queryable) => Promise<void>;
  },
) => Promise<void>;

/** One page of a project's tokens in creation order: after the token `after`, at most `limit`. */
export interface TokenPageQuery {
  readonly after?: string;
  readonly limit: number;
}

/** A token's description: every column but its hash. */
const COLUMNS = 'token_id, project, principal, role, created_at, revoked_at';

/**
 * Bearer tokens scoped to one project and one role. The secret is shown once, at creation; the store
 * keeps only its SHA-256, so a database dump does not yield usable tokens. Issuance and revocation
 * commit in one transaction with their record (the journal entry): a crash never leaves a live
 * token nobody journaled, or a revocation without its entry.
 */
export class TokenStore {
  readonly #record: TokenRecorder;

  constructor(
    private readonly store: Store,
    record?: TokenRecorder,
  ) {
    this.#record =
      record ??
      ((_event, { check, write }) =>
        store.transaction(async (tx) => {
          await check(tx);
          await write(tx);
        }));
  }

  /** Issues a token; the returned `token` is the only copy of the secret. */
  async create(
    project: string,
    principal: string,
    role: string,
  ): Promise<{ token: string; info: TokenInfo }> {
    checkTokenGrant(project, principal, role);
    const token = `cnr_${randomBytes(32).toString('base64url')}`;
    const info: TokenInfo = {
      token_id: `tok_${randomBytes(6).toString('hex')}`,
      project,
      principal,
      role: role as TokenRole,
      created_at: new Date().toISOString(),
      revoked_at: null,
    };
    await this.#record(
      { action: 'issued', info },
      {
        check: async () => undefined,
        write: async (tx) => {
          await tx.run(
            'INSERT INTO auth_tokens (token_id, token_hash, project, principal, role, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
            [info.token_id, sha256Hex(token), project, principal, info.role, info.created_at],
          );
        },
      },
    );
    return { token, info };
  }

  /** The principal a bearer token stands for, or null for a malformed, unknown or revoked token. */
  async authenticate(token: string): Promise<AuthPrincipal | null> {
    if (!TOKEN.test(token)) return null;
    const rows = await this.store.all<{
      token_id: string;
      project: string;
      principal: string;
      role: TokenRole;
      revoked_at: string | null;
    }>(
      'SELECT token_id, project, principal, role, revoked_at FROM auth_tokens WHERE token_hash = $1',
      [sha256Hex(token)],
    );
    const row = rows[0];
    if (!row || row.revoked_at !== null) return null;
    return { id: row.principal, project: row.project, role: row.role, token_id: row.token_id };
  }

  /** Revokes a token of a project; true when it was live (false, and nothing recorded, otherwise). */
  async revoke(project: string, tokenId: string): Promise<boolean> {
    const live = await this.#one(project, tokenId);
    if (!live || live.revoked_at !== null) return false;
    const revokedAt = new Date().toISOString();
    const gone = new CanonryError('UNKNOWN_TOKEN', 'no live token with that id in this project');
    try {
      await this.#record(
        { action: 'revoked', info: { ...live, revoked_at: revokedAt } },
        {
          // Decided again under the transaction: a concurrent revoke may have won.
          check: async (tx) => {
            const rows = await tx.all(
              'SELECT token_id FROM auth_tokens WHERE project = $1 AND token_id = $2 AND revoked_at IS NULL',
              [project, tokenId],
            );
            if (rows.length === 0) throw gone;
          },
          write: async (tx) => {
            await tx.run(
              'UPDATE auth_tokens SET revoked_at = $3 WHERE project = $1 AND token_id = $2 AND revoked_at IS NULL',
              [project, tokenId, revokedAt],
            );
          },
        },
      );
    } catch (err) {
      if (err === gone) return false;
      throw err;
    }
    return true;
  }

  /** The tokens of a project (descriptions only), in creation order. */
  list(project: string): Promise<TokenInfo[]> {
    return this.store.all<TokenInfo>(
      `SELECT ${COLUMNS} FROM auth_tokens WHERE project = $1 ORDER BY created_at, token_id`,
      [project],
    );
  }

  /**
   * One page of {@link TokenStore.list}: at most `limit` tokens made after the token `after` (in
   * creation order, then id), read as a range of `auth_tokens_project`; a page shorter than `limit`
   * is the last. An `after` that names no token of the project is INVALID_ARGUMENT.
   */
  async page(project: string, q: TokenPageQuery): Promise<TokenInfo[]> {
    if (q.after === undefined) {
      return this.store.all<TokenInfo>(
        `SELECT ${COLUMNS} FROM auth_tokens WHERE project = $1 ORDER BY created_at, token_id LIMIT $2`,
        [project, q.limit],
      );
    }
    const from = await this.#one(project, q.after);
    if (!from) {
      throw new CanonryError('INVALID_ARGUMENT', `after: no token ${q.after} in ${project}`, {
        field: 'after',
      });
    }
    return this.store.all<TokenInfo>(
      `SELECT ${COLUMNS} FROM auth_tokens WHERE project = $1 AND (created_at, token_id) > ($2, $3)
       ORDER BY created_at, token_id LIMIT $4`,
      [project, from.created_at, from.token_id, q.limit],
    );
  }

  /** One token of a project, by id, or undefined. */
  async #one(project: string, tokenId: string): Promise<TokenInfo | undefined> {
    const [row] = await this.store.all<TokenInfo>(
      `SELECT ${COLUMNS} FROM auth_tokens WHERE project = $1 AND token_id = $2`,
      [project, tokenId],
    );
    return row;
  }
}
