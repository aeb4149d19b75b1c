// A page of a project's tokens is a range of an index in creation order: the tokens of other
// projects lying between the ones a page shows are never read into the process, and paging to the
// end yields each of the project's tokens once — on both engines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TokenInfo, TokenStore } from '../../src/auth/index.js';
import { CANON_ENGINES, type EngineRuntime } from '../helpers/canon.js';
import { counting } from '../helpers/page-bound.js';

/** The store with every row `all` hands back counted. */
const byCreation = (a: TokenInfo, b: TokenInfo) =>
  a.created_at < b.created_at
    ? -1
    : a.created_at > b.created_at
      ? 1
      : a.token_id < b.token_id
        ? -1
        : a.token_id > b.token_id
          ? 1
          : 0;

for (const engine of CANON_ENGINES) {
  describe.skipIf(!engine.available)(`a page of tokens, bounded, on ${engine.name}`, () => {
    let e: EngineRuntime;
    /** The project's tokens as they were made, and the revoked one's id. */
    const made: TokenInfo[] = [];

    beforeAll(async () => {
      e = await engine.open();
      const { tokens } = e.runtime;
      for (let i = 0; i < 12; i++) {
        made.push((await tokens.create('atelier', `p${i}`, 'viewer')).info);
        // Another project's tokens between each of this one's.
        for (let k = 0; k < 15; k++) await tokens.create('other', `o${i}-${k}`, 'agent');
      }
      expect(await tokens.revoke('atelier', made[3]!.token_id)).toBe(true);
      made.sort(byCreation);
    }, 240_000);
    afterAll(() => e?.close());

    it.each([1, 2, 5, 12, 100])(
      'pages of %i yield each token once, in creation order',
      async (limit) => {
        const all: string[] = [];
        let after: string | undefined;
        for (let n = 0; n < 50; n++) {
          const { db, seen } = counting(e.runtime.store);
          const tokens = new TokenStore(db);
          const page = await tokens.page('atelier', {
            limit,
            ...(after === undefined ? {} : { after }),
          });
          // The cursor's own row is looked up once, then at most a page.
          expect(seen.rows).toBeLessThanOrEqual(limit + (after === undefined ? 0 : 1));
          expect(page.every((t) => t.project === 'atelier')).toBe(true);
          all.push(...page.map((t) => t.token_id));
          if (page.length < limit) break;
          after = page.at(-1)?.token_id;
        }
        expect(all).toEqual(made.map((t) => t.token_id));
      },
    );

    it('a revoked token is listed as revoked, where it was made', async () => {
      const page = await e.runtime.tokens.page('atelier', { limit: 100 });
      expect(page.filter((t) => t.revoked_at !== null).map((t) => t.principal)).toEqual(['p3']);
    });

    it("a cursor of another project's token, or of none, is INVALID_ARGUMENT naming after", async () => {
      const [foreign] = await e.runtime.tokens.page('other', { limit: 1 });
      for (const after of [foreign!.token_id, 'tok_000000000000']) {
        await expect(e.runtime.tokens.page('atelier', { after, limit: 5 })).rejects.toMatchObject({
          code: 'INVALID_ARGUMENT',
          details: { field: 'after' },
        });
      }
    });

    it.runIf(engine.name === 'sqlite')('reads a page as a range of the project index', async () => {
      const plan = await e.runtime.store.all<{ detail: string }>(
        `EXPLAIN QUERY PLAN SELECT token_id, project, principal, role, created_at, revoked_at FROM auth_tokens WHERE project = $1 AND (created_at, token_id) > ($2, $3)
         ORDER BY created_at, token_id LIMIT $4`,
        ['atelier', made[0]!.created_at, made[0]!.token_id, 5],
      );
      expect(plan.map((r) => r.detail).join('\n')).toContain(
        'SEARCH auth_tokens USING INDEX auth_tokens_project (project=? AND (created_at,token_id)>(?,?))',
      );
    });
  });
}
