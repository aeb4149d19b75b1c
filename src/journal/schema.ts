import { type Migration, textInByteOrder } from '../store/index.js';

/** A parked append's columns after its id (the same on both engines; see the `parked` migration). */
const PARKED_COLUMNS = `project TEXT NOT NULL, at TEXT NOT NULL, kind TEXT NOT NULL, actor TEXT NOT NULL,
  correlation_id TEXT, body TEXT NOT NULL, authority TEXT NOT NULL, receipt TEXT NOT NULL,
  seq BIGINT, prev_hash TEXT, hash TEXT`;

/** The journal's tables, in order. Never edit or reorder a migration that has shipped: append. */
export const JOURNAL_MIGRATIONS: readonly Migration[] = [
  {
    name: 'journal',
    up: `
      CREATE TABLE journal_entries (
        project TEXT NOT NULL,
        seq BIGINT NOT NULL,
        format INTEGER NOT NULL,
        at TEXT NOT NULL,
        kind TEXT NOT NULL,
        body TEXT NOT NULL,
        actor TEXT NOT NULL,
        authority TEXT NOT NULL,
        correlation_id TEXT,
        idempotency_key TEXT,
        receipt TEXT NOT NULL,
        prev_hash TEXT NOT NULL,
        hash TEXT NOT NULL,
        PRIMARY KEY (project, seq)
      );
      CREATE UNIQUE INDEX journal_entries_idempotency
        ON journal_entries (project, idempotency_key) WHERE idempotency_key IS NOT NULL;
      CREATE TABLE journal_heads (
        project TEXT PRIMARY KEY,
        seq BIGINT NOT NULL,
        hash TEXT NOT NULL
      );
      CREATE TABLE journal_checkpoints (
        project TEXT NOT NULL,
        seq BIGINT NOT NULL,
        checkpoint TEXT NOT NULL,
        PRIMARY KEY (project, seq)
      );
    `,
  },
  {
    // A pruned prefix (the kernel's audit, past its retention) leaves this anchor: the chain now
    // starts after `seq`, whose hash a checkpoint signed before the rows were deleted.
    name: 'bases',
    up: `
      CREATE TABLE journal_bases (
        project TEXT PRIMARY KEY,
        seq BIGINT NOT NULL,
        hash TEXT NOT NULL,
        checkpoint TEXT NOT NULL
      );
    `,
  },
  {
    // Which version of each projection wrote its tables (see Projection.version).
    name: 'projection_versions',
    up: `
      CREATE TABLE journal_projection_versions (
        name TEXT PRIMARY KEY,
        version BIGINT NOT NULL
      );
    `,
  },
  {
    // Plain appends parked while other processes contend for a project's head (append-parked.ts).
    // Unlogged on PostgreSQL: an append is acknowledged only once its entry is in the chain, so its
    // parked row needs no flush. The functions chain parked rows inside the database, in the
    // statement that parks or claims them: no round trip to a client while the head is locked.
    // They build each entry's canonical text exactly as entry-hash.ts does (every part is stored
    // canonical; to_json escapes strings as JSON.stringify does) and hash it with sha256; the
    // writer that parked a row rebuilds its entry in JS and refuses to acknowledge a hash that
    // differs. SQLite has one writing process and never parks.
    name: 'parked',
    up: {
      postgres: `
        CREATE UNLOGGED TABLE journal_parked (id BIGSERIAL PRIMARY KEY, ${PARKED_COLUMNS});
        CREATE INDEX journal_parked_waiting ON journal_parked (project, id) WHERE seq IS NULL;

        -- Takes the head of p_project (waiting for it, or only if free) and chains its parked rows in
        -- arrival order, at most p_max, stopping before an entry a checkpoint is due at (a writer
        -- signs that one). Returns p_id's place and state: placed (chained now or before), busy (the
        -- head is held), no-head, checkpoint (stopped at a checkpoint before p_id), again (p_id was
        -- not among the first p_max), gone (no such row).
        CREATE FUNCTION canonry_chain_parked(
          p_project TEXT, p_id BIGINT, p_wait BOOLEAN, p_every BIGINT, p_format INTEGER, p_max INTEGER
        ) RETURNS TABLE (state TEXT, seq BIGINT, at TEXT, prev_hash TEXT, hash TEXT)
        LANGUAGE plpgsql AS $fn$
        DECLARE
          head RECORD;
          own RECORD;
          r RECORD;
          s BIGINT;
          prev TEXT;
          txt TEXT;
          hx TEXT;
          stopped BOOLEAN := FALSE;
          o_seq BIGINT;
          o_at TEXT;
          o_prev TEXT;
          o_hash TEXT;
          ids BIGINT[] := '{}';
          seqs BIGINT[] := '{}';
          prevs TEXT[] := '{}';
          hashes TEXT[] := '{}';
        BEGIN
          IF p_wait THEN
            SELECT h.seq, h.hash INTO head FROM journal_heads h WHERE h.project = p_project FOR UPDATE;
          ELSE
            SELECT h.seq, h.hash INTO head FROM journal_heads h WHERE h.project = p_project
              FOR UPDATE SKIP LOCKED;
          END IF;
          IF NOT FOUND THEN
            IF EXISTS (SELECT 1 FROM journal_heads h WHERE h.project = p_project) THEN
              RETURN QUERY SELECT 'busy'::TEXT, NULL::BIGINT, NULL::TEXT, NULL::TEXT, NULL::TEXT;
            ELSE
              RETURN QUERY SELECT 'no-head'::TEXT, NULL::BIGINT, NULL::TEXT, NULL::TEXT, NULL::TEXT;
            END IF;
            RETURN;
          END IF;
          -- Held to the commit: writers waiting in canonry_await_parked wake together when it lands.
          PERFORM pg_advisory_xact_lock(1667329647, hashtext(p_project));
          SELECT p.seq, p.at, p.prev_hash, p.hash INTO own FROM journal_parked p WHERE p.id = p_id;
          IF NOT FOUND THEN
            RETURN QUERY SELECT 'gone'::TEXT, NULL::BIGINT, NULL::TEXT, NULL::TEXT, NULL::TEXT;
            RETURN;
          END IF;
          IF own.seq IS NOT NULL THEN
            DELETE FROM journal_parked p WHERE p.id = p_id;
            RETURN QUERY SELECT 'placed'::TEXT, own.seq, own.at, own.prev_hash, own.hash;
            RETURN;
          END IF;
          s := head.seq;
          prev := head.hash;
          FOR r IN
            SELECT p.id, p.at, p.kind, p.actor, p.correlation_id, p.body, p.authority, p.receipt
              FROM journal_parked p WHERE p.project = p_project AND p.seq IS NULL
              ORDER BY p.id LIMIT p_max FOR UPDATE
          LOOP
            IF p_every > 0 AND (s + 1) % p_every = 0 THEN
              stopped := TRUE;
              EXIT;
            END IF;
            s := s + 1;
            txt := '{"actor":' || to_json(r.actor)::TEXT || ',"at":' || to_json(r.at)::TEXT
              || ',"authority":' || r.authority || ',"body":' || r.body
              || ',"correlation_id":' || COALESCE(to_json(r.correlation_id)::TEXT, 'null')
              || ',"format":' || p_format || ',"idempotency_key":null,"kind":' || to_json(r.kind)::TEXT
              || ',"prev_hash":' || to_json(prev)::TEXT || ',"project":' || to_json(p_project)::TEXT
              || ',"receipt":' || r.receipt || ',"seq":' || s || '}';
            hx := 'sha256:' || encode(sha256(convert_to(txt, 'UTF8')), 'hex');
            ids := ids || r.id;
            seqs := seqs || s;
            prevs := prevs || prev;
            hashes := hashes || hx;
            IF r.id = p_id THEN
              o_seq := s;
              o_at := r.at;
              o_prev := prev;
              o_hash := hx;
            END IF;
            prev := hx;
          END LOOP;
          IF s > head.seq THEN
            -- Set-based: one INSERT and one UPDATE for the whole chain, texts read where they are.
            INSERT INTO journal_entries (project, seq, format, at, kind, body, actor, authority,
                correlation_id, idempotency_key, receipt, prev_hash, hash)
              SELECT p_project, u.seq, p_format, p.at, p.kind, p.body, p.actor, p.authority,
                  p.correlation_id, NULL, p.receipt, u.prev, u.hash
                FROM unnest(ids, seqs, prevs, hashes) AS u(id, seq, prev, hash)
                JOIN journal_parked p ON p.id = u.id
                ORDER BY u.seq;
            UPDATE journal_parked p SET seq = u.seq, prev_hash = u.prev, hash = u.hash
              FROM unnest(ids, seqs, prevs, hashes) AS u(id, seq, prev, hash)
              WHERE p.id = u.id AND p.id <> p_id;
            IF o_seq IS NOT NULL THEN
              DELETE FROM journal_parked p WHERE p.id = p_id;
            END IF;
            UPDATE journal_heads h SET seq = s, hash = prev WHERE h.project = p_project;
            -- Rows placed for writers that died before claiming them: their entries are in the chain.
            IF s / 4096 <> head.seq / 4096 THEN
              DELETE FROM journal_parked p
                WHERE p.project = p_project AND p.seq IS NOT NULL AND p.seq <= s - 4096;
            END IF;
          END IF;
          IF o_seq IS NOT NULL THEN
            RETURN QUERY SELECT 'placed'::TEXT, o_seq, o_at, o_prev, o_hash;
          ELSIF stopped THEN
            RETURN QUERY SELECT 'checkpoint'::TEXT, NULL::BIGINT, NULL::TEXT, NULL::TEXT, NULL::TEXT;
          ELSE
            RETURN QUERY SELECT 'again'::TEXT, NULL::BIGINT, NULL::TEXT, NULL::TEXT, NULL::TEXT;
          END IF;
        END
        $fn$;

        -- Waits until no writer is chaining p_project's parked rows (they hold the lock exclusively to
        -- their commit), then takes p_id back if it was placed: its place, or no row.
        CREATE FUNCTION canonry_await_parked(p_project TEXT, p_id BIGINT)
        RETURNS TABLE (seq BIGINT, at TEXT, prev_hash TEXT, hash TEXT)
        LANGUAGE plpgsql AS $fn$
        BEGIN
          PERFORM pg_advisory_xact_lock_shared(1667329647, hashtext(p_project));
          RETURN QUERY DELETE FROM journal_parked p WHERE p.id = p_id AND p.seq IS NOT NULL
            RETURNING p.seq, p.at, p.prev_hash, p.hash;
        END
        $fn$;

        -- Parks one plain append and tries, without waiting, to chain the project's parked rows.
        CREATE FUNCTION canonry_park(
          p_project TEXT, p_at TEXT, p_kind TEXT, p_actor TEXT, p_correlation TEXT, p_body TEXT,
          p_authority TEXT, p_receipt TEXT, p_every BIGINT, p_format INTEGER, p_max INTEGER
        ) RETURNS TABLE (id BIGINT, state TEXT, seq BIGINT, at TEXT, prev_hash TEXT, hash TEXT)
        LANGUAGE plpgsql AS $fn$
        DECLARE
          new_id BIGINT;
        BEGIN
          INSERT INTO journal_parked (project, at, kind, actor, correlation_id, body, authority, receipt)
            VALUES (p_project, p_at, p_kind, p_actor, p_correlation, p_body, p_authority, p_receipt)
            RETURNING journal_parked.id INTO new_id;
          RETURN QUERY SELECT new_id, c.state, c.seq, c.at, c.prev_hash, c.hash
            FROM canonry_chain_parked(p_project, new_id, FALSE, p_every, p_format, p_max) c;
        END
        $fn$;
      `,
      sqlite: `
        CREATE TABLE journal_parked (id INTEGER PRIMARY KEY AUTOINCREMENT, ${PARKED_COLUMNS});
      `,
    },
  },
  {
    // Parked appends learn their place from a notification instead of claiming it (append-parked.ts,
    // "Contended heads"): a chain deletes the rows it chains and stamps each entry with the parked
    // row it came from (`parked_id`, outside the hash), so a writer that missed the notification
    // still finds its entry, or its row still parked, in one statement. Replaces the functions of
    // `parked`; rows placed by them are claimed by nobody now. SQLite never parks.
    name: 'parked_places',
    up: {
      postgres: `
        ALTER TABLE journal_entries ADD COLUMN parked_id BIGINT;
        DROP FUNCTION canonry_park(TEXT, TEXT, TEXT, TEXT, TEXT, TEXT, TEXT, TEXT, BIGINT, INTEGER, INTEGER);
        DROP FUNCTION canonry_chain_parked(TEXT, BIGINT, BOOLEAN, BIGINT, INTEGER, INTEGER);
        DROP FUNCTION canonry_await_parked(TEXT, BIGINT);
        DELETE FROM journal_parked WHERE seq IS NOT NULL;
        DROP INDEX journal_parked_waiting;
        CREATE INDEX journal_parked_project ON journal_parked (project, id);

        -- Takes the head of p_project (waiting for it, or only if free) and chains its parked rows
        -- in arrival order, at most p_max, stopping before an entry a checkpoint is due at (a writer
        -- signs that one). Returns its state (chained; idle: nothing parked, the head not taken;
        -- busy: the head is held; no-head; checkpoint: stopped before chaining any) and one line
        -- "id seq prev_hash hash" per chained row.
        CREATE FUNCTION canonry_chain(
          p_project TEXT, p_wait BOOLEAN, p_every BIGINT, p_format INTEGER, p_max INTEGER
        ) RETURNS TABLE (state TEXT, places TEXT)
        LANGUAGE plpgsql AS $fn$
        DECLARE
          head RECORD;
          r RECORD;
          s BIGINT;
          prev TEXT;
          txt TEXT;
          hx TEXT;
          stopped BOOLEAN := FALSE;
          lines TEXT := '';
          ids BIGINT[] := '{}';
          seqs BIGINT[] := '{}';
          prevs TEXT[] := '{}';
          hashes TEXT[] := '{}';
        BEGIN
          -- Nothing parked: no lock taken, nothing written, so nothing to flush.
          IF NOT EXISTS (SELECT 1 FROM journal_parked p WHERE p.project = p_project) THEN
            RETURN QUERY SELECT 'idle'::TEXT, ''::TEXT;
            RETURN;
          END IF;
          IF p_wait THEN
            SELECT h.seq, h.hash INTO head FROM journal_heads h WHERE h.project = p_project FOR UPDATE;
          ELSE
            SELECT h.seq, h.hash INTO head FROM journal_heads h WHERE h.project = p_project
              FOR UPDATE SKIP LOCKED;
          END IF;
          IF NOT FOUND THEN
            IF EXISTS (SELECT 1 FROM journal_heads h WHERE h.project = p_project) THEN
              RETURN QUERY SELECT 'busy'::TEXT, NULL::TEXT;
            ELSE
              RETURN QUERY SELECT 'no-head'::TEXT, NULL::TEXT;
            END IF;
            RETURN;
          END IF;
          s := head.seq;
          prev := head.hash;
          FOR r IN
            SELECT p.id, p.at, p.kind, p.actor, p.correlation_id, p.body, p.authority, p.receipt
              FROM journal_parked p WHERE p.project = p_project
              ORDER BY p.id LIMIT p_max FOR UPDATE
          LOOP
            IF p_every > 0 AND (s + 1) % p_every = 0 THEN
              stopped := TRUE;
              EXIT;
            END IF;
            s := s + 1;
            txt := '{"actor":' || to_json(r.actor)::TEXT || ',"at":' || to_json(r.at)::TEXT
              || ',"authority":' || r.authority || ',"body":' || r.body
              || ',"correlation_id":' || COALESCE(to_json(r.correlation_id)::TEXT, 'null')
              || ',"format":' || p_format || ',"idempotency_key":null,"kind":' || to_json(r.kind)::TEXT
              || ',"prev_hash":' || to_json(prev)::TEXT || ',"project":' || to_json(p_project)::TEXT
              || ',"receipt":' || r.receipt || ',"seq":' || s || '}';
            hx := 'sha256:' || encode(sha256(convert_to(txt, 'UTF8')), 'hex');
            ids := ids || r.id;
            seqs := seqs || s;
            prevs := prevs || prev;
            hashes := hashes || hx;
            lines := lines || r.id || ' ' || s || ' ' || prev || ' ' || hx || E'\n';
            prev := hx;
          END LOOP;
          IF s = head.seq THEN
            RETURN QUERY SELECT CASE WHEN stopped THEN 'checkpoint' ELSE 'idle' END, ''::TEXT;
            RETURN;
          END IF;
          -- Set-based: one INSERT, one DELETE and one UPDATE for the whole chain.
          INSERT INTO journal_entries (project, seq, format, at, kind, body, actor, authority,
              correlation_id, idempotency_key, receipt, prev_hash, hash, parked_id)
            SELECT p_project, u.seq, p_format, p.at, p.kind, p.body, p.actor, p.authority,
                p.correlation_id, NULL, p.receipt, u.prev, u.hash, u.id
              FROM unnest(ids, seqs, prevs, hashes) AS u(id, seq, prev, hash)
              JOIN journal_parked p ON p.id = u.id
              ORDER BY u.seq;
          DELETE FROM journal_parked p WHERE p.id = ANY(ids);
          UPDATE journal_heads h SET seq = s, hash = prev WHERE h.project = p_project;
          RETURN QUERY SELECT 'chained'::TEXT, lines;
        END
        $fn$;

        -- Parks one plain append and tries, without waiting, to chain the project's parked rows.
        CREATE FUNCTION canonry_park(
          p_project TEXT, p_at TEXT, p_kind TEXT, p_actor TEXT, p_correlation TEXT, p_body TEXT,
          p_authority TEXT, p_receipt TEXT, p_every BIGINT, p_format INTEGER, p_max INTEGER
        ) RETURNS TABLE (id BIGINT, state TEXT, places TEXT)
        LANGUAGE plpgsql AS $fn$
        DECLARE
          new_id BIGINT;
        BEGIN
          INSERT INTO journal_parked (project, at, kind, actor, correlation_id, body, authority, receipt)
            VALUES (p_project, p_at, p_kind, p_actor, p_correlation, p_body, p_authority, p_receipt)
            RETURNING journal_parked.id INTO new_id;
          RETURN QUERY SELECT new_id, c.state, c.places
            FROM canonry_chain(p_project, FALSE, p_every, p_format, p_max) c;
        END
        $fn$;
      `,
      sqlite: 'SELECT 1;',
    },
  },
  {
    // Forwarded appends (append-forwarded.ts): a process leads a contended project for a lease and
    // the others send it their plain appends. Each forwarded entry is stamped with an id its writer
    // chose (negative: parked rows' ids are positive), unique per project, so a writer that did not
    // hear back can append it itself and never twice. SQLite is one process: it never forwards.
    name: 'forwarded_appends',
    up: {
      postgres: `
        CREATE UNIQUE INDEX journal_entries_parked_id ON journal_entries (project, parked_id)
          WHERE parked_id IS NOT NULL;
        CREATE TABLE journal_leaders (
          project TEXT PRIMARY KEY,
          holder TEXT NOT NULL,
          address TEXT NOT NULL,
          token TEXT NOT NULL,
          until TIMESTAMPTZ NOT NULL
        );
      `,
      sqlite: 'SELECT 1;',
    },
  },
  {
    // Projects are listed in byte order on every engine (`projects()`), also on a PostgreSQL whose
    // default collation is linguistic (store README, "Text order").
    name: 'text_byte_order',
    up: textInByteOrder({ journal_heads: ['project'] }),
  },
];
