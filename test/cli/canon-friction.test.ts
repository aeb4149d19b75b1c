// What a new user meets first, through the built CLI (run `npm run build` first) on a fresh data
// directory, with the embedded SQLite file and with PostgreSQL (`--db`): a token in one command,
// `canon message "We decided to ship on Fridays."` proposing with no configuration, a message id
// from another system (`slack:C01/p#12@x`), a message archived only → listed → classified,
// classifier subjects set and read as an editor, and `canon restore <id> --version <n>`.

import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/runtime.js';
import { type ServeProcess, startServe } from '../helpers/serve.js';
import { freshPostgresSchema, postgresAvailable } from '../helpers/stores.js';

const ENGINES = [
  { name: 'sqlite', available: true, db: async () => ({ url: null, drop: async () => {} }) },
  {
    name: 'postgres',
    available: postgresAvailable,
    db: async () => {
      const { url, drop } = await freshPostgresSchema();
      return { url: url as string | null, drop };
    },
  },
] as const;

for (const engine of ENGINES) {
  // Each run starts a node process: allow for a loaded machine.
  describe.skipIf(!engine.available)(
    `a new user's first commands (${engine.name})`,
    { timeout: 240_000 },
    () => {
      let dir: string;
      let cleanup: () => void;
      let drop: () => Promise<void>;
      let db: string | null;
      const tok: Record<string, string> = {};
      beforeAll(async () => {
        ({ dir, cleanup } = tempDir('canonry-cli-friction-'));
        ({ url: db, drop } = await engine.db());
      });
      afterAll(async () => {
        cleanup?.();
        await drop?.();
      });

      const cli = (args: string[], token?: string) =>
        runCli([...args, '--data', dir, ...(db ? ['--db', db] : [])], {
          env: { CANONRY_TOKEN: token ?? '' },
        });
      const ok = async (args: string[], token?: string) => {
        const r = await cli(args, token);
        expect(r.code, `${args.join(' ')}: ${r.stderr}${r.stdout}`).toBe(0);
        return r.stdout;
      };
      const json = async (args: string[], token?: string) =>
        JSON.parse(await ok([...args, '--json'], token));
      const fails = async (args: string[], code: string, token?: string) => {
        const r = await cli(args, token);
        expect(r.code, `${args.join(' ')}: ${r.stdout}`).toBe(1);
        expect(r.stderr).toContain(`canonry: ${code}:`);
      };

      it('issues tokens (only the token store is opened)', async () => {
        for (const [name, role] of [
          ['alice', 'owner'],
          ['bob', 'editor'],
          ['val', 'viewer'],
        ] as const) {
          const out = await json([
            'tokens',
            'create',
            '--project',
            'p',
            '--principal',
            name,
            '--role',
            role,
          ]);
          expect(out.info).toMatchObject({ principal: name, project: 'p', role });
          tok[name] = out.token;
        }
        // The token works against the full runtime the next command opens, and is journaled.
        const board = await ok(['canon', 'board'], tok.val);
        expect(board).toContain('board of p');
        const log = await json(['journal', 'read', '--project', 'p']);
        expect(log.map((e: { kind: string }) => e.kind)).toEqual([
          'auth.token.issued',
          'auth.token.issued',
          'auth.token.issued',
        ]);
      });

      it('canon message "We decided to ship on Fridays." proposes with no configuration', async () => {
        const out = await ok(['canon', 'message', 'We decided to ship on Fridays.'], tok.alice);
        expect(out).toContain('classified proposed_decision, touching decision.ship-on-fridays');
        expect(out).toMatch(
          /create decision\.ship-on-fridays: S\d AUTO_COMMIT → committed, now version 1/,
        );
        await fails(['canon', 'message', 'x', '--text', 'y'], 'INVALID_ARGUMENT', tok.alice);
        await fails(['canon', 'message'], 'INVALID_ARGUMENT', tok.alice);
        // A fact needs a subject: the answer says what to configure.
        const fact = await ok(
          ['canon', 'message', 'According to the review, the build takes 4 minutes.'],
          tok.alice,
        );
        expect(fact).toContain('nothing proposed: the scripted classifier drafts facts');
        expect(fact).toContain('canonry canon subject set');
      });

      it('message ids from other systems; archived only → unclassified → classified', async () => {
        const id = 'slack:C01/p#12@x';
        const first = await json(
          ['canon', 'message', 'We decided to page on-call for outages.', '--id', id],
          tok.alice,
        );
        expect(first.message.message_id).toBe(id);
        const again = await json(['canon', 'classify', id], tok.alice);
        expect(again.proposals.map((p: any) => p.outcome.proposal.proposal_id)).toEqual(
          first.proposals.map((p: any) => p.outcome.proposal.proposal_id),
        );

        await ok(
          [
            'canon',
            'message',
            'We decided to freeze deploys in December.',
            '--id',
            'm/2',
            '--no-classify',
          ],
          tok.alice,
        );
        const listed = await ok(['canon', 'unclassified'], tok.val);
        expect(listed).toContain('m/2 (user, by alice): not tried (archived only)');
        await fails(['canon', 'classify', 'm/2'], 'FORBIDDEN', tok.bob);
        const done = await ok(['canon', 'classify', 'm/2'], tok.alice);
        expect(done).toContain('decision.freeze-deploys-in-december');
        expect(await ok(['canon', 'unclassified'], tok.val)).toContain(
          'every archived message is classified',
        );
        await fails(['canon', 'classify', 'a b'], 'INVALID_ARGUMENT', tok.alice);
      });

      it('unclassified messages a page at a time, a full page saying how to ask for the next', async () => {
        const ids = ['u/1', 'u/2', 'u/3'];
        for (const id of ids)
          await ok(['canon', 'message', `Note ${id}.`, '--id', id, '--no-classify'], tok.alice);
        const all = (await json(['canon', 'unclassified'], tok.val)).messages as {
          message: { message_id: string; seq: number };
        }[];
        // The ground truth: the three archived only, in the order they were sent.
        expect(all.map((u) => u.message.message_id)).toEqual(ids);
        const first = await cli(['canon', 'unclassified', '--limit', '2'], tok.val);
        expect(first.code, first.stderr).toBe(0);
        expect(
          first.stdout
            .trim()
            .split('\n')
            .map((l) => l.split(' ')[0]),
        ).toEqual(ids.slice(0, 2));
        const seq = all[1]!.message.seq;
        expect(first.stderr.trim()).toBe(`2 shown, a full page: the next with --after ${seq}`);
        const rest = await cli(['canon', 'unclassified', '--after', String(seq)], tok.val);
        expect(
          rest.stdout
            .trim()
            .split('\n')
            .map((l) => l.split(' ')[0]),
        ).toEqual(['u/3']);
        expect(rest.stderr).toBe('');
        await fails(['canon', 'unclassified', '--after', 'u/2'], 'INVALID_ARGUMENT', tok.val);
        await fails(['canon', 'unclassified', '--limit', '1001'], 'INVALID_ARGUMENT', tok.val);
      });

      it('subjects are set and read by editors, journaled, and used by the next message', async () => {
        await fails(['canon', 'subjects'], 'FORBIDDEN', tok.val);
        const set = await ok(
          [
            'canon',
            'subject',
            'set',
            'ui.colour',
            '--title',
            'Interface colour',
            '--type',
            'preference',
            '--keywords',
            'red, blue ,colour',
            '--tags',
            'identity',
          ],
          tok.bob,
        );
        expect(set).toContain('classifier: scripted; 1 subject(s) (api, journal seq');
        expect(set).toContain('ui.colour');
        await fails(
          [
            'canon',
            'subject',
            'set',
            'ui.colour',
            '--title',
            'x',
            '--type',
            'colour',
            '--keywords',
            'x',
          ],
          'INVALID_BODY',
          tok.bob,
        );
        const view = await json(['canon', 'subjects'], tok.alice);
        expect(view.config.subjects['ui.colour']).toEqual({
          title: 'Interface colour',
          object_type: 'preference',
          keywords: ['red', 'blue', 'colour'],
          tags: ['identity'],
        });
        const said = await ok(['canon', 'message', 'I would like a blue colour.'], tok.alice);
        expect(said).toContain('create ui.colour');
        await ok(['canon', 'subject', 'remove', 'ui.colour'], tok.bob);
        await fails(['canon', 'subject', 'remove', 'ui.colour'], 'UNKNOWN_SUBJECT', tok.bob);
      });

      it('canon restore <id> --version <n>, as well as a hash', async () => {
        const id = 'decision.ship-on-fridays';
        await ok(['canon', 'message', "We've decided: ship on Fridays!"], tok.alice);
        const object = await json(['canon', 'object', id], tok.val);
        expect(object.object.version_id).toBe(2);
        const restored = await ok(['canon', 'restore', id, '--version', '1'], tok.alice);
        expect(restored).toMatch(/restore decision\.ship-on-fridays: .* committed, now version 3/);
        await fails(['canon', 'restore', id, '--version', '0'], 'INVALID_BODY', tok.alice);
        await fails(['canon', 'restore', id, '--version', '9'], 'UNKNOWN_VERSION', tok.alice);
        await fails(['canon', 'restore', id, '--version', 'v2'], 'INVALID_HASH', tok.alice);
        const versions = await json(['canon', 'provenance', id], tok.val);
        const second = versions.restorable.find((r: any) => r.version_id === 2);
        const byHash = await ok(
          ['canon', 'restore', id, '--version', second.version_hash],
          tok.alice,
        );
        expect(byHash).toContain('now version 4');
      });

      it('serve names the intake classifier in its start log, never the model key', async () => {
        await ok(
          [
            'canon',
            'subject',
            'set',
            'api.limit',
            '--title',
            'API limit',
            '--type',
            'fact',
            '--keywords',
            'limit',
          ],
          tok.bob,
        );
        const args = db ? ['--db', db] : [];
        const waitFor = async (served: ServeProcess, text: string) => {
          for (let i = 0; i < 200 && !served.stderr().includes(text); i++) await sleep(50);
          return served.stderr();
        };
        const scripted = await startServe(dir, { args, timeoutMs: 60_000 });
        try {
          const log = await waitFor(scripted, 'intake classifier');
          expect(log).toContain(
            'canonry: intake classifier: scripted, 1 subject(s) in 1 project(s)',
          );
        } finally {
          await scripted.stop();
        }
        const key = 'sk-friction-SECRET-0a1b2c3d4e5f';
        const modelled = await startServe(dir, {
          args,
          timeoutMs: 60_000,
          env: {
            CANONRY_MODEL_URL: 'http://127.0.0.1:9/v1',
            CANONRY_MODEL: 'fake-llm',
            CANONRY_MODEL_KEY: key,
            CANONRY_LOG_LEVEL: 'info',
          },
        });
        try {
          const log = await waitFor(modelled, 'intake classifier: model');
          expect(log).toContain('canonry: intake classifier: model fake-llm');
          expect(log).not.toContain(key);
        } finally {
          await modelled.stop();
        }
      });
    },
  );
}

describe('canonry tokens on a chain that does not verify', { timeout: 120_000 }, () => {
  it('refuses to append a token event to it (CHAIN_BROKEN); other projects are served', async () => {
    const { dir, cleanup } = tempDir('canonry-cli-broken-');
    try {
      const create = (project: string, principal: string) =>
        runCli(
          [
            'tokens',
            'create',
            '--project',
            project,
            '--principal',
            principal,
            '--role',
            'owner',
            '--data',
            dir,
          ],
          { env: { CANONRY_TOKEN: '' } },
        );
      expect((await create('p', 'alice')).code).toBe(0);
      const db = new Database(join(dir, 'canonry.db'));
      try {
        db.prepare(
          "UPDATE journal_entries SET body = replace(body, 'alice', 'mallory') WHERE project = 'p'",
        ).run();
      } finally {
        db.close();
      }
      const refused = await create('p', 'bob');
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('canonry: CHAIN_BROKEN:');
      const listed = await runCli(['tokens', 'list', '--project', 'p', '--data', dir, '--json']);
      expect(
        JSON.parse(listed.stdout).tokens.map((t: { principal: string }) => t.principal),
      ).toEqual(['alice']);
      expect((await create('q', 'carol')).code).toBe(0);
    } finally {
      cleanup();
    }
  });
});
