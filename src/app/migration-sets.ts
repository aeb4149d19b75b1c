import { AUTH_MIGRATIONS } from '../auth/index.js';
import { CANON_MIGRATIONS } from '../canon/index.js';
import { EVOLUTION_MIGRATIONS } from '../evolution/index.js';
import { JOURNAL_MIGRATIONS } from '../journal/index.js';
import { RELAY_MIGRATIONS } from '../relay/index.js';
import { type MigrationSets, STORE_IDENTITY_MIGRATIONS } from '../store/index.js';
import { PROTOCOL_MIGRATIONS } from './protocol-store.js';

/**
 * Every module's schema a runtime opens its store with: what `createCanonry` migrates, and what a
 * database copy (`canonry backup`, `canonry restore`) must not be past.
 */
export const RUNTIME_MIGRATIONS: MigrationSets = {
  store: STORE_IDENTITY_MIGRATIONS,
  journal: JOURNAL_MIGRATIONS,
  auth: AUTH_MIGRATIONS,
  canon: CANON_MIGRATIONS,
  kernel: PROTOCOL_MIGRATIONS,
  relay: RELAY_MIGRATIONS,
  evolution: EVOLUTION_MIGRATIONS,
};
