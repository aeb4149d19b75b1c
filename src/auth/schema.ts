import { type Migration, textInByteOrder } from '../store/index.js';

/**
 * Credentials are not canon: tokens live in their own table, stored as SHA-256 hashes, and only their
 * issuance and revocation (never the secret) are journaled.
 */
export const AUTH_MIGRATIONS: readonly Migration[] = [
  {
    name: 'tokens',
    up: `
      CREATE TABLE auth_tokens (
        token_id TEXT PRIMARY KEY,
        token_hash TEXT NOT NULL UNIQUE,
        project TEXT NOT NULL,
        principal TEXT NOT NULL,
        role TEXT NOT NULL,
        created_at TEXT NOT NULL,
        revoked_at TEXT
      );
    `,
  },
  {
    // A project's tokens are listed by creation time and id in byte order on every engine, also on
    // a PostgreSQL whose default collation is linguistic (store README, "Text order").
    name: 'tokens-text-byte-order',
    up: textInByteOrder({ auth_tokens: ['created_at', 'token_id'] }),
  },
  {
    // A page of a project's tokens (listTokens: after a token, at most a limit) is a range of this
    // index in creation order, not a sort of the project's every token.
    name: 'tokens-by-project',
    up: 'CREATE INDEX auth_tokens_project ON auth_tokens (project, created_at, token_id)',
  },
];
