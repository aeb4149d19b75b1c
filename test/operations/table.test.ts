// The operation table is the one declaration every face is generated from: each operation is whole
// (unique name, a project URL, a CLI command, a body schema its own example satisfies), and the
// checks generated from a body schema refuse with the typed codes the faces promise.
import { type AddressInfo, createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { CanonryError } from '../../src/core/index.js';
import {
  checkBody,
  inlineRefs,
  OPERATIONS,
  operationNamed,
  operationPath,
  remoteInvoker,
} from '../../src/operations/index.js';

const refusal = (name: string, body: unknown) => {
  try {
    checkBody(operationNamed(name), body);
  } catch (err) {
    expect(err).toBeInstanceOf(CanonryError);
    const e = err as CanonryError;
    return { code: e.code, field: (e.details as { field?: string } | undefined)?.field };
  }
  return null;
};

describe('the operation table', () => {
  it('names each operation once, under the project prefix, with a command of its own', () => {
    const names = OPERATIONS.map((op) => op.operationId);
    expect(new Set(names).size).toBe(names.length);
    const commands = OPERATIONS.map((op) => op.cli?.command.split(/ [<[]/)[0]);
    expect(commands.every((c) => typeof c === 'string' && c.length > 0)).toBe(true);
    expect(new Set(commands).size).toBe(commands.length);
    for (const op of OPERATIONS) {
      expect(op.url.startsWith('/v1/projects/:project/'), op.operationId).toBe(true);
      const inUrl = [...op.url.matchAll(/:([a-z_]+)/g)].map((m) => m[1]).slice(1);
      expect(Object.keys(op.params ?? {}), op.operationId).toEqual(inUrl);
      const positional = [...op.cli!.command.matchAll(/<([a-z_]+)>/g)].length;
      expect(positional, op.operationId).toBeGreaterThanOrEqual(inUrl.length);
    }
  });

  it('gives every body a schema that its own example satisfies, with every $ref resolved', () => {
    for (const op of OPERATIONS.filter((o) => o.body)) {
      expect(refusal(op.operationId, op.body!.example), op.operationId).toBeNull();
      expect(JSON.stringify(inlineRefs(op.body!.schema))).not.toContain('$ref');
    }
  });

  it('keeps approvals, reviews and token secrets away from agents on agent faces', () => {
    expect(operationNamed('approveProposal').mcp).toEqual({ minRole: 'editor' });
    expect(operationNamed('reviewArtifact').mcp).toEqual({ minRole: 'editor' });
    for (const name of ['createToken', 'listTokens', 'revokeToken']) {
      expect(operationNamed(name).mcp).toBe('hidden');
    }
  });
});

describe('checks generated from a body schema', () => {
  it('refuses authority claims in any closed object the schema does not declare them in', () => {
    expect(refusal('postMessage', { text: 'hi', actor: 'alice' })?.code).toBe(
      'AUTHORITY_FROM_PAYLOAD',
    );
    const candidate = { object_type: 'fact', title: 'T', text: 'x', authority: 'owner' };
    expect(refusal('postProposal', { object_id: 'a', intent: 'create', candidate })?.code).toBe(
      'AUTHORITY_FROM_PAYLOAD',
    );
    // A token's own principal and role are its fields, declared by its schema.
    expect(refusal('createToken', { principal: 'carol', role: 'agent' })).toBeNull();
    // The speaker's role of a message is declared too; canon alone judges it.
    expect(refusal('postMessage', { text: 'hi', role: 'assistant' })).toBeNull();
  });

  it("answers the operation's code, or its property's, naming the field", () => {
    expect(refusal('postProposal', { object_id: 'a', candidate: {} })).toEqual({
      code: 'INVALID_PROPOSAL',
      field: 'intent',
    });
    expect(refusal('restoreObject', { version_hash: 'sha256:zz' })).toEqual({
      code: 'INVALID_HASH',
      field: 'version_hash',
    });
    expect(refusal('rejectProposal', { reason: 'x', note: 1 })).toEqual({
      code: 'INVALID_BODY',
      field: 'note',
    });
    expect(refusal('compileWorkingSet', { limit: 101 })).toEqual({
      code: 'INVALID_BODY',
      field: 'limit',
    });
    expect(refusal('rejectProposal', [])?.code).toBe('INVALID_BODY');
    // Effective windows take a date or a date-time with offset, as canon does.
    const note = (effective_from: string) => ({
      object_id: 'a',
      intent: 'create',
      candidate: { object_type: 'fact', title: 'T', text: 'x', effective_from },
    });
    expect(refusal('postProposal', note('2027-01-01'))).toBeNull();
    expect(refusal('postProposal', note('2027-01-01T00:00:00Z'))).toBeNull();
    expect(refusal('postProposal', note('2027-02-30'))?.code).toBe('INVALID_PROPOSAL');
  });

  it('lets an optional body be absent and refuses an absent required one', () => {
    expect(refusal('compileWorkingSet', undefined)).toBeNull();
    expect(refusal('approveProposal', undefined)).toBeNull();
    expect(refusal('rejectProposal', undefined)?.code).toBe('INVALID_BODY');
  });

  it('fills a URL with each value percent-encoded, and refuses one a URL would resolve away', () => {
    const op = OPERATIONS.find((o) => Object.keys(o.params ?? {}).length === 1)!;
    const [name] = Object.keys(op.params!) as [string];
    const path = operationPath(op, 'p', { [name]: 'a/b?c#d' });
    expect(path).toContain('a%2Fb%3Fc%23d');
    expect(new URL(path, 'http://x').pathname).toBe(path.split('?')[0]);
    for (const value of ['.', '..', '']) {
      let code: string | undefined;
      try {
        operationPath(op, 'p', { [name]: value });
      } catch (err) {
        code = (err as CanonryError).code;
      }
      expect(code, JSON.stringify(value)).toBe('INVALID_ARGUMENT');
    }
  });

  it('a remote invoker refuses a URL with credentials, and an unreachable server is named by origin only', async () => {
    let refused: CanonryError | undefined;
    try {
      remoteInvoker('http://user:pw@127.0.0.1:1/', 'cnr_token', 'p');
    } catch (err) {
      refused = err as CanonryError;
    }
    expect(refused?.code).toBe('INVALID_ARGUMENT');
    expect(refused?.message).not.toContain('pw');
    const op = OPERATIONS.find((o) => Object.keys(o.params ?? {}).length === 1)!;
    const [name] = Object.keys(op.params!) as [string];
    // A port that was free a moment ago: nothing listens on it.
    const probe = createServer();
    await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
    const { port } = probe.address() as AddressInfo;
    await new Promise((done) => probe.close(done));
    let unreachable: CanonryError | undefined;
    try {
      await remoteInvoker(`http://127.0.0.1:${port}/`, 'cnr_token', 'proj').invoke(op, {
        params: { [name]: 'secret-id' },
      });
    } catch (err) {
      unreachable = err as CanonryError;
    }
    expect(unreachable?.code).toBe('SERVER_UNREACHABLE');
    expect(unreachable?.message).toBe(`cannot reach http://127.0.0.1:${port} (ECONNREFUSED)`);
  });
});
