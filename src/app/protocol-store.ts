import { CanonryError, type ContentHash, canonicalize, contentHash } from '../core/index.js';
import {
  bodySchema,
  defineEntryKind,
  type Journal,
  type JournalEntry,
  type Projection,
} from '../journal/index.js';
import type { CompiledProtocol, ProtocolStore, RegistrationOwner } from '../kernel/index.js';
import type { Migration, Queryable } from '../store/index.js';

/** The project that holds protocols registered by the system (the stakes gate, imported files). */
export const REGISTRY_PROJECT = 'registry';

/** The registry's table: one row per (project, hash), found by hash from any project. */
export const PROTOCOL_MIGRATIONS: readonly Migration[] = [
  {
    name: 'protocols',
    up: `
      CREATE TABLE kernel_protocols (
        project TEXT NOT NULL,
        hash TEXT NOT NULL,
        slug TEXT NOT NULL,
        version TEXT NOT NULL,
        bundle TEXT NOT NULL,
        registered_by TEXT NOT NULL,
        seq BIGINT NOT NULL,
        PRIMARY KEY (project, hash)
      );
      CREATE INDEX kernel_protocols_hash ON kernel_protocols (hash);
    `,
  },
];

/** The body of a `kernel.protocol` entry: the protocol bundle and its content hash. */
export interface RegistrationBody {
  readonly hash: ContentHash;
  readonly protocol: { readonly slug: string; readonly version: string };
}

const { hash, object, text } = bodySchema;

/** One protocol registration (the registry's entry kind). */
export const PROTOCOL = defineEntryKind<RegistrationBody>({
  kind: 'kernel.protocol',
  version: 1,
  schema: object({ hash, protocol: object({ slug: text, version: text }) }),
  summary: (b) => ({ hash: b.hash }),
});

/** The registration an entry holds; its hash must be its protocol's (STORE_CORRUPT otherwise). */
function registrationOf(entry: JournalEntry): RegistrationBody {
  const body = PROTOCOL.body(entry);
  if (contentHash(body.protocol) !== body.hash) {
    throw new CanonryError('STORE_CORRUPT', `entry ${entry.seq} is not a protocol registration`);
  }
  return body;
}

/** The registry as a projection of `kernel.protocol` entries, rebuilt by replay like canon's. */
export const PROTOCOL_PROJECTION: Projection = {
  name: 'protocols',
  kinds: [PROTOCOL.kind],
  tables: ['kernel_protocols'],
  async apply(tx: Queryable, entry: JournalEntry): Promise<void> {
    const { hash, protocol } = registrationOf(entry);
    await tx.run(
      'INSERT INTO kernel_protocols (project, hash, slug, version, bundle, registered_by, seq) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (project, hash) DO NOTHING',
      [
        entry.project,
        hash,
        protocol.slug,
        protocol.version,
        canonicalize(protocol),
        entry.actor,
        entry.seq,
      ],
    );
  },
};

/**
 * The kernel's protocol store on the journal: a registration is a `kernel.protocol` entry in the
 * registering principal's project (the system's in `registry`), and the table every server on the
 * database reads by hash is its projection. A project holds at most `maxPerProject` protocols,
 * counted under the project's head lock (QUOTA_EXCEEDED past it).
 */
export class JournalProtocolStore implements ProtocolStore {
  constructor(
    private readonly journal: Journal,
    private readonly maxPerProject: number,
  ) {}

  async load(hash: ContentHash): Promise<unknown> {
    const rows = await this.journal.store.all<{ bundle: string }>(
      'SELECT bundle FROM kernel_protocols WHERE hash = $1 LIMIT 1',
      [hash],
    );
    if (!rows[0]) return undefined;
    try {
      return JSON.parse(rows[0].bundle);
    } catch {
      throw new CanonryError('STORE_CORRUPT', `stored protocol ${hash} is not JSON`);
    }
  }

  async save(protocol: CompiledProtocol, owner: RegistrationOwner | null): Promise<boolean> {
    const project = owner?.project ?? REGISTRY_PROJECT;
    const { duplicate } = await this.journal.append(
      project,
      PROTOCOL.input(
        { hash: protocol.hash, protocol: protocol.protocol },
        {
          actor: owner?.principal ?? 'system',
          authority: owner
            ? { principal: owner.principal, role: owner.role, project: owner.project }
            : { system: 'kernel' },
          idempotency_key: `protocol:${protocol.hash}`,
        },
      ),
      {
        precondition: async (tx) => {
          const rows = await tx.all<{ n: number }>(
            'SELECT COUNT(*) AS n FROM kernel_protocols WHERE project = $1',
            [project],
          );
          if (Number(rows[0]?.n ?? 0) >= this.maxPerProject) {
            throw new CanonryError(
              'QUOTA_EXCEEDED',
              `project ${project} has registered ${this.maxPerProject} protocols, the most it may`,
              { limit: this.maxPerProject },
            );
          }
        },
      },
    );
    return !duplicate;
  }
}
