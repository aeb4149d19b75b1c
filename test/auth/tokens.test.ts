import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CanonryRuntime } from '../../src/app/index.js';
import { freshRuntime } from '../helpers/runtime.js';

let runtime: CanonryRuntime;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ runtime, close } = await freshRuntime());
});
afterAll(() => close());

describe('tokens', () => {
  it('authenticate only while live, are stored hashed, and their issuance is journaled without the secret', async () => {
    const { token, info } = await runtime.tokens.create('atelier', 'alice', 'owner');
    expect(token).toMatch(/^cnr_[A-Za-z0-9_-]{43}$/);
    expect(await runtime.tokens.authenticate(token)).toEqual({
      id: 'alice',
      project: 'atelier',
      role: 'owner',
      token_id: info.token_id,
    });
    const stored = JSON.stringify(await runtime.store.all('SELECT * FROM auth_tokens'));
    expect(stored).not.toContain(token);
    // One character changed mid-token (the last one carries padding bits and was once already 'A').
    const at = 12;
    const other = token[at] === 'x' ? 'y' : 'x';
    expect(
      await runtime.tokens.authenticate(`${token.slice(0, at)}${other}${token.slice(at + 1)}`),
    ).toBeNull();
    expect(await runtime.tokens.authenticate('not a token')).toBeNull();

    expect(await runtime.tokens.revoke('other', info.token_id)).toBe(false);
    expect(await runtime.tokens.revoke('atelier', info.token_id)).toBe(true);
    expect(await runtime.tokens.revoke('atelier', info.token_id)).toBe(false);
    expect(await runtime.tokens.authenticate(token)).toBeNull();

    const entries = await runtime.journal.read('atelier');
    expect(entries.map((e) => [e.kind, (e.body as { token_id: string }).token_id])).toEqual([
      ['auth.token.issued', info.token_id],
      ['auth.token.revoked', info.token_id],
    ]);
    expect(JSON.stringify(entries)).not.toContain(token);
  });

  it('refuses bad projects, principals and roles with typed errors', async () => {
    const codeOf = (p: Promise<unknown>) =>
      p.then(
        () => 'OK',
        (e: { code?: string }) => e.code,
      );
    expect(await codeOf(runtime.tokens.create('Bad Project', 'alice', 'owner'))).toBe(
      'INVALID_PROJECT',
    );
    expect(await codeOf(runtime.tokens.create('atelier', 'no spaces allowed', 'owner'))).toBe(
      'INVALID_ARGUMENT',
    );
    expect(await codeOf(runtime.tokens.create('atelier', 'alice', 'admin'))).toBe(
      'INVALID_ARGUMENT',
    );
  });
});
