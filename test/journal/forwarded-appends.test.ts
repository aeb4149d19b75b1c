// Plain appends to a contended project forwarded to the process leading it (append-forwarded.ts,
// PostgreSQL). Whichever process appended each entry, the chain must be gapless and verify, every
// acknowledged append must be stored once, exactly as acknowledged; a writer whose leader did not
// answer appends it itself, and it still lands once; a leader takes nothing from a peer without its
// token, nor anything that is not an entry; off loopback (or when told) the wire is TLS keyed by
// that token, which never crosses it, and nothing crosses in clear.
import { createServer, type Server, type Socket, connect as tcp } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { describe, expect, it } from 'vitest';
import { type AppendResult, type ForwardOptions, Journal } from '../../src/journal/index.js';
import { PostgresStore, type Store } from '../../src/store/index.js';
import { requireBuilt } from '../fixtures/writers.js';
import { ENGINES, perTest } from '../helpers/stores.js';
import {
  chainLeftovers,
  expectChained,
  expectWriterOrder,
  killWritersInTurn,
  note,
  PROJECT,
} from './contended-chain.js';

const postgres = ENGINES.find((e) => e.name === 'postgres')!;

const { defer, fresh: freshStore } = perTest();
const fresh = () => freshStore(postgres);

/** A process as `canonry serve` on PostgreSQL is one: its own store of one connection, forwarding. */
function forwarding(location: string, forward: ForwardOptions = {}): Journal {
  const store = new PostgresStore({ connectionString: location, max: 1 });
  const journal = new Journal(store, { forward });
  defer(async () => {
    await journal.close();
    await store.close().catch(() => undefined);
  });
  return journal;
}

/**
 * `leader` and `other` append in turn until `leader`'s head is stale (it counts the project as
 * contended), then `leader` appends once more: it claims the project's lease and leads it.
 */
async function lead(leader: Journal, other: Journal): Promise<void> {
  await leader.append(PROJECT, note(0, -1));
  await other.append(PROJECT, note(1, 0));
  await leader.append(PROJECT, note(0, 0));
  await leader.append(PROJECT, note(0, 1));
}

async function lease(store: Store): Promise<{ address: string; token: string } | undefined> {
  const rows = await store.all<{ address: string; token: string }>(
    'SELECT address, token FROM journal_leaders WHERE project = $1',
    [PROJECT],
  );
  return rows[0];
}

async function entries(store: Store): Promise<number> {
  const rows = await store.all<{ n: string }>(
    'SELECT COUNT(*) AS n FROM journal_entries WHERE project = $1',
    [PROJECT],
  );
  return Number(rows[0]!.n);
}

/** A free loopback port (taken and given back). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

/** A TCP relay to `address` that passes everything both ways and keeps a copy of the bytes. */
async function recordingRelay(address: string): Promise<{ at: string; bytes: () => Buffer }> {
  const [host, port] = address.split(':');
  const sockets: Socket[] = [];
  const seen: Buffer[] = [];
  const server: Server = createServer((from) => {
    const to = tcp({ host: host!, port: Number(port) });
    sockets.push(from, to);
    from.on('data', (b: Buffer) => seen.push(b));
    to.on('data', (b: Buffer) => seen.push(b));
    from.pipe(to);
    to.pipe(from);
    from.on('error', () => undefined);
    to.on('error', () => undefined);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  defer(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((r) => server.close(r));
  });
  return {
    at: `127.0.0.1:${(server.address() as { port: number }).port}`,
    bytes: () => Buffer.concat(seen),
  };
}

/**
 * Holds the project's head row locked from another session for `ms`: appends to it wait. Resolves
 * once the lock is held, with `released` (wrapped: an async function would wait for it).
 */
async function holdHead(location: string, ms: number): Promise<{ released: Promise<void> }> {
  const other = new PostgresStore({ connectionString: location, max: 1 });
  defer(() => other.close().catch(() => undefined));
  let locked!: () => void;
  const taken = new Promise<void>((r) => {
    locked = r;
  });
  const held = other.transaction(async (tx) => {
    await tx.all('SELECT seq FROM journal_heads WHERE project = $1 FOR UPDATE', [PROJECT]);
    locked();
    await new Promise((r) => setTimeout(r, ms));
  });
  await taken;
  return { released: held };
}

/**
 * A raw peer of the leader at `published` (its lease's address, `tls:` and all): sends `lines` and
 * collects the lines it is answered until the leader closes or `until` holds. Over TLS keyed by
 * `key` (a lease token's hex: the wire's pre-shared key), or over plain TCP when `key` is null.
 */
async function peer(
  published: string,
  key: string | null,
  lines: readonly string[],
  until: (got: readonly string[]) => boolean,
): Promise<{ got: string[]; closed: boolean }> {
  const [host, port] = published.replace(/^tls:/, '').split(':');
  const to = { host: host!, port: Number(port) };
  const socket =
    key === null
      ? tcp(to)
      : tlsConnect({
          ...to,
          minVersion: 'TLSv1.3',
          pskCallback: () => ({ psk: Buffer.from(key, 'hex'), identity: 'canonry-forward/1' }),
          checkServerIdentity: () => undefined,
        });
  const got: string[] = [];
  let buffer = '';
  let closed = false;
  socket.setEncoding('utf8');
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 3_000);
    socket.on('data', (chunk: string) => {
      const parts = (buffer + chunk).split('\n');
      buffer = parts.pop()!;
      got.push(...parts);
      if (until(got)) {
        clearTimeout(timer);
        resolve();
      }
    });
    socket.on('close', () => {
      closed = true;
      clearTimeout(timer);
      resolve();
    });
    socket.on('error', () => undefined);
    socket.write(lines.map((l) => `${l}\n`).join(''));
  });
  socket.destroy();
  return { got, closed };
}

const request = (id: number, fid: string, input: unknown, project: unknown = PROJECT) =>
  JSON.stringify({ id, project, fids: [fid], inputs: [input] });

describe.skipIf(!postgres.available)(
  'plain appends forwarded to a project leader (PostgreSQL)',
  () => {
    it.each([
      ['plain TCP', false],
      ['TLS', true],
    ])(
      '4 processes × 60 plain appends to one project (%s): forwarded to one leader, once each, gapless, verifies',
      async (_wire, tls) => {
        const { store, location } = await fresh();
        const journals = Array.from({ length: 4 }, () => forwarding(location, { tls }));
        await journals[0]!.append(PROJECT, note(0, -1));
        const acks: AppendResult[] = [];
        const together: AppendResult[][] = [];
        await Promise.all(
          journals.map(async (journal, w) => {
            for (let n = 0; n < 60; ) {
              if (n % 10 !== 5) {
                acks.push(await journal.append(PROJECT, note(w, n++)));
                continue;
              }
              // Every tenth, three entries appended together (the kernel audit's shape).
              const three = await journal.appendAll(PROJECT, [
                note(w, n),
                note(w, n + 1),
                note(w, n + 2),
              ]);
              together.push(three);
              acks.push(...three);
              n += 3;
            }
          }),
        );
        for (const three of together) {
          expect(three.map((r) => r.entry.seq)).toEqual(
            [0, 1, 2].map((i) => three[0]!.entry.seq + i),
          );
        }
        await expectChained(store, acks, 241);
        await expectWriterOrder(store);
        const sent = journals.reduce((s, j) => s + j.stats().forwarded.sent, 0);
        const received = journals.reduce((s, j) => s + j.stats().forwarded.received, 0);
        console.log(`[forwarded-appends] 240 appends, ${sent} forwarded to the leader`);
        expect(sent).toBeGreaterThan(60);
        expect(received).toBe(sent);
        // One process led: the others only sent, and the leader only received.
        expect(journals.filter((j) => j.stats().forwarded.received > 0)).toHaveLength(1);
        const stamped = await store.all<{ n: string }>(
          'SELECT COUNT(*) AS n FROM journal_entries WHERE project = $1 AND parked_id < 0',
          [PROJECT],
        );
        expect(Number(stamped[0]!.n)).toBe(received);
      },
    );

    it("a leader's answer comes too late: the writer appends it itself under the same id, and it lands once", async () => {
      const { store, location } = await fresh();
      const leader = forwarding(location);
      const writer = forwarding(location, { timeoutMs: 300 });
      await lead(leader, writer);
      // The writer's head is stale: its next append finds the head moved (and counts it contended),
      // the one after goes to the leader, which reads it and then waits for the head row another
      // session holds, past the writer's timeout; the writer's own append waits for it too.
      await writer.append(PROJECT, note(1, 1));
      let { released } = await holdHead(location, 700);
      const started = performance.now();
      const { entry } = await writer.append(PROJECT, note(1, 2));
      expect(performance.now() - started).toBeGreaterThanOrEqual(290);
      await released;
      expect(leader.stats().forwarded.received).toBe(1);
      expect(writer.stats().forwarded.sent).toBe(0);
      const rows = await store.all<{ seq: string; hash: string; parked_id: string }>(
        `SELECT seq, hash, parked_id FROM journal_entries WHERE project = $1 AND body = $2`,
        [PROJECT, JSON.stringify({ n: 2, writer: 1 })],
      );
      expect(rows).toHaveLength(1);
      expect(Number(rows[0]!.seq)).toBe(entry.seq);
      expect(rows[0]!.hash).toBe(entry.hash);
      expect(BigInt(rows[0]!.parked_id)).toBeLessThan(0n);
      // Two entries together, answered too late as well: both land once, in order.
      ({ released } = await holdHead(location, 700));
      const pair = await writer.appendAll(PROJECT, [note(1, 3), note(1, 4)]);
      await released;
      expect(leader.stats().forwarded.received).toBe(3);
      expect(writer.stats().forwarded.sent).toBe(0);
      expect(pair.map((r) => r.entry.seq)).toEqual([entry.seq + 1, entry.seq + 2]);
      await expectChained(store, pair, 8);
      await expectWriterOrder(store);
    });

    it('a TLS wire keyed by the lease token: what crosses it shows neither the token nor an entry', async () => {
      const { store, location } = await fresh();
      const port = await freePort();
      const relay = await recordingRelay(`127.0.0.1:${port}`);
      const leader = forwarding(location, { port, advertise: relay.at, tls: true });
      const writer = forwarding(location);
      await lead(leader, writer);
      const { address, token } = (await lease(store))!;
      expect(address).toBe(`tls:${relay.at}`);
      await writer.append(PROJECT, note(1, 1));
      const marker = 'forwarded-in-confidence-7f3a';
      const acks = [];
      for (let n = 0; n < 5; n++)
        acks.push(
          await writer.append(PROJECT, {
            ...note(1, n + 2),
            body: { writer: 1, n: n + 2, memo: marker },
          }),
        );
      expect(writer.stats().forwarded.sent).toBe(5);
      expect(leader.stats().forwarded.received).toBe(5);
      const wire = relay.bytes();
      expect(wire.length).toBeGreaterThan(1_000);
      for (const secret of [token, marker, '"hello"', '"places"', '"writer":1'])
        expect(wire.includes(secret)).toBe(false);
      await expectChained(store, acks, 10);
    });

    it('a leader that cannot be reached: the writer appends on its own, once; a closed leader gives its lease up', async () => {
      const { store, location } = await fresh();
      const leader = forwarding(location);
      const writer = forwarding(location);
      await lead(leader, writer);
      const held = await lease(store);
      expect(held).toBeDefined();
      await writer.append(PROJECT, note(1, 1));
      await writer.append(PROJECT, note(1, 2));
      expect(writer.stats().forwarded.sent).toBe(1);
      // The leader's process gone without a word: its lease still names it, nobody listens there.
      const dead = await freePort();
      await store.run('UPDATE journal_leaders SET address = $2 WHERE project = $1', [
        PROJECT,
        `127.0.0.1:${dead}`,
      ]);
      await new Promise((r) => setTimeout(r, 1_100)); // the writer reads the lease again
      const acks = [];
      for (let n = 3; n < 8; n++) acks.push(await writer.append(PROJECT, note(1, n)));
      expect(writer.stats().forwarded.sent).toBe(1);
      // Something else listens where the lease points: it never greets, so nothing was read.
      const stranger = createServer((socket) => socket.end('HTTP/1.1 400 Bad Request\r\n\r\n'));
      await new Promise<void>((r) => stranger.listen(0, '127.0.0.1', r));
      defer(() => new Promise<void>((r) => stranger.close(() => r())));
      await store.run('UPDATE journal_leaders SET address = $2 WHERE project = $1', [
        PROJECT,
        `127.0.0.1:${(stranger.address() as { port: number }).port}`,
      ]);
      await new Promise((r) => setTimeout(r, 1_100));
      for (let n = 8; n < 12; n++) acks.push(await writer.append(PROJECT, note(1, n)));
      expect(writer.stats().forwarded.sent).toBe(1);
      await expectChained(store, acks, 15);
      await expectWriterOrder(store);
      await leader.close();
      expect(await lease(store)).toBeUndefined();
    });

    it('a leader holds at most 256 connections: a flood is turned away, writers park, then forward again', async () => {
      const { store, location } = await fresh();
      const leader = forwarding(location);
      const writer = forwarding(location);
      await lead(leader, writer);
      const [host, port] = (await lease(store))!.address.split(':');
      const flood: Socket[] = [];
      const closed = new Set<Socket>();
      defer(async () => {
        for (const s of flood) s.destroy();
      });
      for (let i = 0; i < 300; i++) {
        const s = tcp({ host: host!, port: Number(port) });
        s.on('error', () => undefined);
        s.on('close', () => closed.add(s));
        flood.push(s);
      }
      const started = performance.now();
      while (closed.size < 44 && performance.now() - started < 3_000)
        await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 200));
      expect(flood.length - closed.size).toBe(256);
      expect(leader.stats().forwarded.refused).toEqual({ handshake: 0, token: 0, capacity: 44 });
      // The writer's first forward finds no room: nothing was read, so it appends on its own.
      const acks = [
        await writer.append(PROJECT, note(1, 1)),
        await writer.append(PROJECT, note(1, 2)),
      ];
      expect(writer.stats().forwarded.sent).toBe(0);
      for (const s of flood) s.destroy();
      // Once the lease it saw has run out, the writer tries a leader again, and is taken: the
      // leader finds the head moved, leads again, and the writer finds it moved in turn.
      await new Promise((r) => setTimeout(r, 3_200));
      for (const [journal, w, n] of [
        [leader, 0, 2],
        [leader, 0, 3],
        [writer, 1, 3],
        [writer, 1, 4],
      ] as const)
        acks.push(await journal.append(PROJECT, note(w, n)));
      expect(writer.stats().forwarded.sent).toBe(1);
      expect(leader.stats().forwarded.received).toBe(1);
      await expectChained(store, acks, 10);
      await expectWriterOrder(store);
    });

    it('a process that cannot listen for forwarded appends says so, and parks', async () => {
      const { store, location } = await fresh();
      const port = await freePort();
      const taken = createServer();
      await new Promise<void>((r) => taken.listen(port, '127.0.0.1', r));
      defer(() => new Promise<void>((r) => taken.close(() => r())));
      const errors: unknown[] = [];
      const own = new PostgresStore({ connectionString: location, max: 1 });
      const journal = new Journal(own, { forward: { port }, onError: (e) => errors.push(e) });
      defer(async () => {
        await journal.close();
        await own.close();
      });
      await lead(journal, forwarding(location));
      expect(errors.map(String)).toEqual([
        `Error: forwarded appends: cannot listen on 127.0.0.1:${port} (EADDRINUSE); contended appends park instead`,
      ]);
      expect(await lease(store)).toBeUndefined();
      expect(journal.stats().forwarded).toEqual({
        sent: 0,
        received: 0,
        refused: { handshake: 0, token: 0, capacity: 0 },
      });
      expect(await entries(store)).toBe(4);
      await expectChained(store, [], 4);
    });

    it('on loopback the wire is plain TCP by default, and still takes nothing without the token', async () => {
      const { store, location } = await fresh();
      const leaderOf = forwarding(location);
      await lead(leaderOf, forwarding(location));
      const { address, token } = (await lease(store))!;
      expect(address).toMatch(/^127\.0\.0\.1:\d+$/);
      const before = await entries(store);
      const good = { kind: 'test.note', body: { writer: 9, n: 0 }, actor: 'writer-9' };
      const wrong = token.replace(/^./, (c) => (c === '0' ? '1' : '0'));
      const refused = await peer(
        address,
        null,
        [JSON.stringify({ hello: wrong }), request(1, '-5', good)],
        () => false,
      );
      expect(refused).toEqual({ got: ['{"refused":"token"}'], closed: true });
      // Refused once, a connection is read no further: not a right hello, not an append after it.
      const late = await peer(
        address,
        null,
        [
          JSON.stringify({ hello: wrong }),
          JSON.stringify({ hello: token }),
          request(2, '-6', good),
        ],
        () => false,
      );
      expect(late).toEqual({ got: ['{"refused":"token"}'], closed: true });
      expect(await entries(store)).toBe(before);
      // TLS towards a plain leader: no handshake, nothing read.
      const tls = await peer(address, token, [JSON.stringify({ hello: token })], () => false);
      expect(tls).toEqual({ got: [], closed: true });
      const greeted = await peer(
        address,
        null,
        [JSON.stringify({ hello: token }), request(1, '-5', good)],
        (got) => got.length >= 2,
      );
      expect(greeted.got[0]).toBe('{"hello":"ok"}');
      // Two wrong tokens, and a TLS hello read as a line that is not one: one refusal a connection.
      expect(leaderOf.stats().forwarded.refused).toEqual({ handshake: 0, token: 3, capacity: 0 });
      expect(JSON.parse(greeted.got[1]!).places?.[0]?.seq).toBe(before + 1);
      await expectChained(store, [], before + 1);
    });

    it('a leader takes nothing without its token, and answers what is not an entry with an error', async () => {
      const { store, location } = await fresh();
      const leader = forwarding(location, { tls: true });
      await lead(leader, forwarding(location));
      const { address, token } = (await lease(store))!;
      expect(address).toMatch(/^tls:127\.0\.0\.1:\d+$/);
      const before = await entries(store);
      const good = { kind: 'test.note', body: { writer: 9, n: 0 }, actor: 'writer-9' };

      const refused = await peer(
        address,
        token,
        [
          JSON.stringify({ hello: `${token.slice(0, -1)}${token.endsWith('0') ? '1' : '0'}` }),
          request(1, '-5', good),
        ],
        () => false,
      );
      expect(refused.got).toEqual(['{"refused":"token"}']);
      expect(refused.closed).toBe(true);

      // The right hello in plain TCP, or over TLS under another key: no handshake, nothing read.
      const hello = JSON.stringify({ hello: token });
      const other = token.replace(/^./, (c) => (c === '0' ? '1' : '0'));
      for (const key of [null, other]) {
        const stranger = await peer(address, key, [hello, request(1, '-4', good)], () => false);
        expect(stranger.got).toEqual([]);
        expect(stranger.closed).toBe(true);
      }
      expect(await entries(store)).toBe(before);

      const answered = await peer(
        address,
        token,
        [
          hello,
          request(1, '5', good), // a forwarded id is negative
          request(2, '-5', good, 'Not A Project'),
          request(3, '-6', { ...good, extra: 1 }),
          request(4, '-7', { ...good, idempotency_key: 'k' }),
          request(5, '-8', { ...good, kind: 'Bad Kind' }),
          request(6, '-9', good),
        ],
        (got) => got.length >= 7,
      );
      expect(answered.got[0]).toBe('{"hello":"ok"}');
      const byId = new Map(
        answered.got.slice(1).map((line) => {
          const m = JSON.parse(line) as { id: number; error?: string; places?: { seq: number }[] };
          return [m.id, m];
        }),
      );
      expect(byId.get(1)?.error).toBe('INVALID_ENTRY');
      expect(byId.get(2)?.error).toBe('INVALID_PROJECT');
      expect(byId.get(3)?.error).toBe('INVALID_ENTRY');
      expect(byId.get(4)?.error).toBe('INVALID_ENTRY');
      expect(byId.get(5)?.error).toBe('INVALID_ENTRY');
      expect(byId.get(6)?.places?.[0]?.seq).toBe(before + 1);
      const stamped = await store.all<{ parked_id: string }>(
        'SELECT parked_id FROM journal_entries WHERE project = $1 AND seq = $2',
        [PROJECT, before + 1],
      );
      expect(String(stamped[0]!.parked_id)).toBe('-9');
      // The same id again: the chain holds it once, and the second is refused.
      const again = await peer(
        address,
        token,
        [hello, request(7, '-9', good)],
        (got) => got.length >= 2,
      );
      expect(JSON.parse(again.got[1]!)).toMatchObject({ id: 7 });
      expect(JSON.parse(again.got[1]!).places).toBeUndefined();
      // Several entries at once: consecutive, all or none; their ids one each, none twice.
      const two = [good, { ...good, body: { writer: 9, n: 1 } }];
      const several = await peer(
        address,
        token,
        [
          hello,
          JSON.stringify({ id: 8, project: PROJECT, fids: ['-10'], inputs: two }),
          JSON.stringify({ id: 9, project: PROJECT, fids: ['-11', '-11'], inputs: two }),
          JSON.stringify({ id: 10, project: PROJECT, fids: [], inputs: [] }),
          JSON.stringify({ id: 11, project: PROJECT, fids: ['-12', '-13'], inputs: two }),
        ],
        (got) => got.length >= 5,
      );
      const answers = new Map(
        several.got.slice(1).map((line) => {
          const m = JSON.parse(line) as { id: number; error?: string; places?: { seq: number }[] };
          return [m.id, m];
        }),
      );
      expect(answers.get(8)?.error).toBe('INVALID_ENTRY');
      expect(answers.get(9)?.error).toBe('INVALID_ENTRY');
      expect(answers.get(10)?.error).toBe('INVALID_ENTRY');
      expect(answers.get(11)?.places?.map((p) => p.seq)).toEqual([before + 2, before + 3]);
      // Before its hello a connection may send a short line only.
      const long = await peer(address, token, ['x'.repeat(2_000)], () => false);
      expect(long.closed).toBe(true);
      expect(long.got.filter((l) => l !== '{"refused":"token"}')).toEqual([]);
      // A line that is not JSON ends the connection.
      const garbled = await peer(address, token, [hello, '{"id":1,'], () => false);
      expect(garbled.closed).toBe(true);
      expect(await entries(store)).toBe(before + 3);
      await expectChained(store, [], before + 3);
      // Two handshakes failed (plain TCP, another key); two hellos refused (a wrong token, a long line).
      expect(leader.stats().forwarded.refused).toEqual({ handshake: 2, token: 2, capacity: 0 });
    });

    it.each([
      ['plain TCP', 'forward'],
      ['TLS', 'forward-tls'],
    ] as const)(
      '4 forwarding writer processes (%s), SIGKILLed in turn, leaders included: nothing acknowledged lost or doubled',
      async (wire, mode) => {
        requireBuilt();
        const { store, location } = await fresh();
        await new Journal(store).append(PROJECT, note(0, -1));
        const acked = await killWritersInTurn(location, mode, 300);
        // Appends a killed writer had parked (no leader it could reach) land with the next parked chain.
        const plain = () => {
          const one = new PostgresStore({ connectionString: location, max: 1 });
          defer(() => one.close());
          return new Journal(one);
        };
        await chainLeftovers(plain(), plain());
        const rows = await store.all<{ seq: string; body: string; parked_id: string | null }>(
          'SELECT seq, body, parked_id FROM journal_entries WHERE project = $1 ORDER BY seq',
          [PROJECT],
        );
        expect(rows.map((r) => Number(r.seq))).toEqual(
          Array.from({ length: rows.length }, (_, i) => i + 1),
        );
        const keys = rows.flatMap((r) => (JSON.parse(r.body) as { key?: string }).key ?? []);
        expect(new Set(keys).size).toBe(keys.length);
        const stored = new Map(
          rows.map((r) => [(JSON.parse(r.body) as { key?: string }).key, Number(r.seq)]),
        );
        expect([...acked].filter(([key, seq]) => stored.get(key) !== seq)).toEqual([]);
        expect(acked.size).toBeGreaterThan(50);
        const forwarded = rows.filter(
          (r) => r.parked_id !== null && BigInt(r.parked_id) < 0n,
        ).length;
        expect(forwarded).toBeGreaterThan(0);
        await expectChained(store, [], rows.length);
        console.log(
          `[forwarded-appends] ${wire}: 10 SIGKILLs, ${acked.size} acknowledged, ${rows.length} entries, ${forwarded} forwarded`,
        );
      },
      120_000,
    );
  },
);
