// LCSM §1 over HTTP, against a real server on loopback with a real SQLite file: an owner (alice), an
// assistant and a coding agent (agents), an editor (bob) and a viewer, each with their own bearer
// token. Every step goes through the governed loop; authority comes only from the tokens.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentHash } from '../../src/core/index.js';
import { call, STORY_SUBJECTS, tokensFor } from '../helpers/auth.js';
import { liveServer } from '../helpers/runtime.js';

const P = 'story';
let live: Awaited<ReturnType<typeof liveServer>>;
let t: Record<'alice' | 'assistant' | 'bob' | 'coder' | 'val', string>;

beforeAll(async () => {
  live = await liveServer({ [P]: STORY_SUBJECTS });
  t = await tokensFor(live.runtime, P, {
    alice: 'owner',
    assistant: 'agent',
    bob: 'editor',
    coder: 'agent',
    val: 'viewer',
  });
});
afterAll(() => live?.close());

const api = (method: string, path: string, token: string | null, body?: unknown) =>
  call(live.url, method, `/v1/projects/${P}${path}`, token, body);

// State carried from step to step, as the story runs in order.
const s = {
  v1: '',
  v2: '',
  blue: '',
  identity: '',
  identityVersion: '',
  colourTexts: [] as string[],
};
const QUOTE = 'the product adopts a dark ink and violet identity';
const SPEC = 'Design spec v2: the product adopts a dark ink and violet identity.';

describe('LCSM §1 over HTTP', () => {
  it('1. the user suggests a red interface: archived, classified, auto-committed', async () => {
    const r = await api('POST', '/messages', t.alice, {
      text: 'I would like a red interface for the app.',
    });
    expect(r.status).toBe(201);
    expect(r.body.message).toMatchObject({ actor: 'alice', actor_role: 'owner', role: 'user' });
    expect(r.body.classification.touched).toContain('ui.colour');
    const [p] = r.body.proposals;
    expect(p.ok).toBe(true);
    expect(p.outcome.proposal).toMatchObject({
      object_id: 'ui.colour',
      status: 'committed',
      proposer: { id: 'alice', role: 'owner', project: P },
    });
    expect(p.outcome.proposal.gate.label).toBe('AUTO_COMMIT');
    expect(p.outcome.committed.version_id).toBe(1);
    expect(p.outcome.receipt.receipt_hash).toMatch(/^sha256:/);
    s.v1 = p.outcome.committed.version_hash;
  });

  it('2. the assistant proposes blue: pending; the agent cannot approve its own proposal', async () => {
    const spoof = await api('POST', '/messages', t.assistant, { text: 'Use blue.', role: 'user' });
    expect(spoof.status).toBe(400);
    expect(spoof.body.error.code).toBe('AUTHORITY_FROM_PAYLOAD');

    const r = await api('POST', '/messages', t.assistant, {
      text: 'I propose blue instead of red for accessibility.',
      role: 'assistant',
    });
    expect(r.status).toBe(201);
    const [p] = r.body.proposals;
    expect(p.ok).toBe(true);
    expect(p.outcome.proposal).toMatchObject({
      status: 'pending',
      required_role: 'editor',
      proposer: { id: 'assistant', role: 'agent' },
    });
    expect(p.outcome.proposal.gate.label).toBe('REQUIRE_CONFIRMATION');
    expect(p.outcome.committed).toBeNull();
    s.blue = p.outcome.proposal.proposal_id;

    const own = await api('POST', `/proposals/${s.blue}/approve`, t.assistant);
    expect(own.status).toBe(403);
    expect(own.body.error.code).toBe('FORBIDDEN');
    const byViewer = await api('POST', `/proposals/${s.blue}/approve`, t.val);
    expect(byViewer.status).toBe(403);

    const view = await api('GET', `/proposals/${s.blue}`, t.val);
    expect(view.status).toBe(200);
    expect(view.body.current.version_hash).toBe(s.v1);
    expect(view.body.current.content.text).toMatch(/red/i);
    expect(view.body.candidate.content.text).toMatch(/blue/i);
    expect(view.body.candidate.authority).toEqual({ principal: 'assistant', role: 'agent' });
    expect(Object.keys(view.body.checks).sort()).toEqual([
      'certainty_raised_without_evidence',
      'dependents_made_stale',
      'dispute_collapsed',
      'information_removed',
      'reversible',
      'source_or_authority_change',
      'suggestion_to_directive',
      'within_authority',
    ]);
    expect(view.body.gate.label).toBe('REQUIRE_CONFIRMATION');
    expect(view.body.gate.event.label).toBe('REQUIRE_CONFIRMATION');
    expect(view.body.gate.event.signature).toBeTruthy();
    expect(view.body.gate.verification).toEqual({ ok: true, issue: null });
    expect(view.body.stale).toBe(false);

    const pending = await api('GET', '/proposals?status=pending', t.val);
    expect(pending.body.proposals.map((x: any) => x.proposal_id)).toEqual([s.blue]);
  });

  it('3. red is still preferred: canon moves, the editor’s approval is stale, then rejected', async () => {
    const r = await api('POST', '/messages', t.alice, { text: 'Red is still preferred.' });
    expect(r.status).toBe(201);
    const [p] = r.body.proposals;
    expect(p.outcome.proposal.status).toBe('committed');
    expect(p.outcome.committed.version_id).toBe(2);
    s.v2 = p.outcome.committed.version_hash;

    const before = await api('GET', `/proposals/${s.blue}`, t.bob);
    expect(before.body.stale).toBe(true);
    expect(before.body.current_version_now).toBe(s.v2);

    const stale = await api('POST', `/proposals/${s.blue}/approve`, t.bob, {});
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe('STALE_APPROVAL');
    expect(stale.body.error.details).toMatchObject({ proposal_id: s.blue, base_version: s.v2 });

    const again = await api('GET', `/proposals/${s.blue}`, t.bob);
    expect(again.body.status).toBe('pending');
    expect(again.body.base_version).toBe(s.v2);
    expect(again.body.current.version_hash).toBe(s.v2);
    expect(again.body.current.version_hash).not.toBe(before.body.current.version_hash);
    expect(again.body.stale).toBe(false);
    const colour = await api('GET', '/objects/ui.colour', t.val);
    expect(colour.body.current.version_hash).toBe(s.v2);

    const rejected = await api('POST', `/proposals/${s.blue}/reject`, t.alice, {
      reason: 'the user still prefers red',
    });
    expect(rejected.status).toBe(200);
    expect(rejected.body.proposal).toMatchObject({
      status: 'rejected',
      reason: 'the user still prefers red',
      decided_by: { id: 'alice', role: 'owner' },
    });
    const twice = await api('POST', `/proposals/${s.blue}/reject`, t.alice, { reason: 'again' });
    expect(twice.status).toBe(409);
    expect(twice.body.error.code).toBe('PROPOSAL_CLOSED');
  });

  it('4. the S3 identity decision hard-stops: only the owner can approve it', async () => {
    const archived = await api('POST', '/messages?classify=false', t.alice, {
      text: SPEC,
      message_id: 'spec-v2',
    });
    expect(archived.status).toBe(201);
    expect(archived.body).toEqual({ message: expect.objectContaining({ message_id: 'spec-v2' }) });
    const start = SPEC.indexOf(QUOTE);
    const proposed = await api('POST', '/proposals', t.bob, {
      object_id: 'design.identity',
      intent: 'supersede',
      base_version: null,
      supersedes: ['ui.colour'],
      message_id: 'spec-v2',
      candidate: {
        object_type: 'decision',
        title: 'Visual identity',
        text: 'The product uses a dark ink and violet identity.',
        shape: { palette: ['dark ink', 'violet'] },
        confidence_state: 'sourced',
        sources: [{ message_id: 'spec-v2', span: [start, start + QUOTE.length], quote: QUOTE }],
        tags: ['identity'],
      },
    });
    expect(proposed.status).toBe(201);
    expect(proposed.body.committed).toBeNull();
    expect(proposed.body.proposal).toMatchObject({ status: 'pending', required_role: 'owner' });
    expect(proposed.body.proposal.gate.label).toBe('HARD_STOP');
    expect(proposed.body.proposal.comparison.stakes).toBe('S3');
    s.identity = proposed.body.proposal.proposal_id;

    for (const token of [t.bob, t.assistant, t.coder]) {
      const refused = await api('POST', `/proposals/${s.identity}/approve`, token);
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('FORBIDDEN');
    }
    const approved = await api('POST', `/proposals/${s.identity}/approve`, t.alice);
    expect(approved.status).toBe(200);
    expect(approved.body.proposal).toMatchObject({
      status: 'committed',
      decided_by: { id: 'alice', role: 'owner' },
    });
    expect(approved.body.committed.version_id).toBe(1);
    s.identityVersion = approved.body.committed.version_hash;

    const colour = await api('GET', '/objects/ui.colour', t.val);
    expect(colour.body.object).toMatchObject({
      status: 'superseded',
      superseded_by: 'design.identity',
    });
    const versions = await api('GET', '/objects/ui.colour/versions', t.val);
    s.colourTexts = versions.body.versions.map((v: any) => v.content.text);
    expect(s.colourTexts).toHaveLength(2);
  });

  it('5–6. artifacts get their §10 states; agents register but never accept', async () => {
    const blueButton = {
      artifact_id: 'settings-blue-button',
      title: 'Settings screen, blue button component',
      canonical_note_versions: [{ object_id: 'ui.colour', version_hash: s.v2 }],
      tool_or_model_refs: ['coding-agent'],
      output_digest: contentHash({ component: 'SettingsButton', colour: 'blue' }),
    };
    const selfAccepted = await api('POST', '/artifacts', t.coder, {
      ...blueButton,
      acceptance_state: 'accepted',
    });
    expect(selfAccepted.status).toBe(403);
    expect(selfAccepted.body.error.code).toBe('FORBIDDEN');

    const registered = await api('POST', '/artifacts', t.coder, blueButton);
    expect(registered.status).toBe(201);
    expect(registered.body.manifest.artifact_version).toBe(1);
    expect(registered.body.state).toBe('requires_regeneration');
    expect(registered.body.reasons.join(' ')).toContain('superseded');

    const spec = await api('POST', '/artifacts', t.coder, {
      artifact_id: 'identity-guide',
      title: 'Identity guide',
      canonical_note_versions: [{ object_id: 'design.identity', version_hash: s.identityVersion }],
      output_digest: contentHash({ guide: 'ink and violet' }),
    });
    expect(spec.status).toBe(201);
    expect(spec.body.state).toBe('current');

    const agentReview = await api('POST', '/artifacts/settings-blue-button/review', t.coder, {
      acceptance_state: 'accepted',
    });
    expect(agentReview.status).toBe(403);
    const review = await api('POST', '/artifacts/settings-blue-button/review', t.bob, {
      acceptance_state: 'rejected',
    });
    expect(review.status).toBe(200);
    expect(review.body.manifest).toMatchObject({
      acceptance_state: 'rejected',
      artifact_version: 2,
    });
    expect(review.body.state).toBe('definitely_stale');
    const accept = await api('POST', '/artifacts/identity-guide/review', t.alice, {
      acceptance_state: 'accepted',
    });
    expect(accept.body.state).toBe('current');

    const list = await api('GET', '/artifacts', t.val);
    expect(
      Object.fromEntries(list.body.artifacts.map((a: any) => [a.manifest.artifact_id, a.state])),
    ).toEqual({ 'identity-guide': 'current', 'settings-blue-button': 'definitely_stale' });
    const one = await api('GET', '/artifacts/identity-guide', t.val);
    expect(one.body.manifest.acceptance_state).toBe('accepted');
  });

  it('the board groups objects by status with pending proposals and artifact states', async () => {
    const board = await api('GET', '/board', t.val);
    expect(board.status).toBe(200);
    expect(board.body.objects.active.map((o: any) => o.object_id)).toEqual(['design.identity']);
    expect(board.body.objects.superseded.map((o: any) => o.object_id)).toEqual(['ui.colour']);
    expect(board.body.objects.retired).toEqual([]);
    expect(board.body.pending).toEqual([]);
    expect(board.body.artifacts).toHaveLength(2);
    const active = await api('GET', '/objects?status=active', t.val);
    expect(active.body.objects.map((o: any) => o.object_id)).toEqual(['design.identity']);
  });

  it('7. a new agent gets a working set without superseded content, with its token count', async () => {
    const ws = await api('POST', '/working-set', t.assistant, {
      objective: 'Build the settings page in the current visual identity and interface colour',
    });
    expect(ws.status).toBe(200);
    expect(ws.body.notes.map((n: any) => n.object_id)).toEqual(['design.identity']);
    expect(ws.body.excluded).toBe(1);
    expect(ws.body.capsule).toContain('dark ink and violet');
    for (const text of s.colourTexts) expect(ws.body.capsule).not.toContain(text);
    expect(ws.body.capsule).not.toMatch(/\bred\b/i);
    expect(Number.isInteger(ws.body.tokens)).toBe(true);
    expect(ws.body.tokens).toBeGreaterThan(10);
    expect(ws.body.tokens).toBeLessThan(2_000);

    const focused = await api('POST', '/working-set', t.val, { object_id: 'design.identity' });
    expect(focused.status).toBe(200);
    expect(focused.body.notes[0].object_id).toBe('design.identity');
    for (const text of s.colourTexts) expect(focused.body.capsule).not.toContain(text);
  });

  it('provenance answers each §8 question', async () => {
    const r = await api('GET', '/objects/design.identity/provenance', t.val);
    expect(r.status).toBe(200);
    const p = r.body;
    // Why does the project believe this? Which source supports it?
    expect(p.why.statement).toBe('The product uses a dark ink and violet identity.');
    expect(p.why.confidence).toBe('sourced');
    expect(p.why.sources).toEqual([
      expect.objectContaining({
        message_id: 'spec-v2',
        quote: QUOTE,
        speaker: 'user',
        actor: 'alice',
      }),
    ]);
    // When did this become current?
    expect(p.current_since.version_id).toBe(1);
    expect(p.current_since.receipt_ref).toMatch(new RegExp(`^${P}#\\d+$`));
    expect(p.current_since.receipt.receipt_hash).toMatch(/^sha256:/);
    // Who authorized it?
    expect(p.authorized_by).toMatchObject({
      proposer: { id: 'bob', role: 'editor' },
      approver: { id: 'alice', role: 'owner' },
      gate: 'HARD_STOP',
      stakes: 'S3',
    });
    expect(p.authorized_by.gate_event).toMatch(/^sha256:/);
    expect(p.authorized_by.gate_protocol).toMatch(/^sha256:/);
    // What did it replace?
    expect(p.replaced.previous_version).toBeNull();
    expect(p.replaced.superseded_objects.map((o: any) => o.object_id)).toEqual(['ui.colour']);
    // Which artifact was built from the old version? What becomes stale if this changes?
    expect(p.built_from_old).toEqual([]);
    expect(p.stale_if_changed.artifacts.map((a: any) => a.manifest.artifact_id)).toEqual([
      'identity-guide',
    ]);
    // Can it be restored? Is it fact, preference, policy, inference, or uncertainty?
    expect(p.restorable).toEqual([]);
    expect(p.epistemic).toBe('decision');
    expect(p.history).toHaveLength(1);
  });

  it('restore appends a new version: history grows, never shrinks', async () => {
    const before = await api('GET', '/objects/ui.colour/versions', t.val);
    const hashes = before.body.versions.map((v: any) => v.version_hash);
    expect(hashes).toEqual([s.v1, s.v2]);

    const badVersion = await api('POST', '/objects/ui.colour/restore', t.alice, {
      version_hash: s.identityVersion,
    });
    expect(badVersion.status).toBe(404);
    expect(badVersion.body.error.code).toBe('UNKNOWN_VERSION');

    const r = await api('POST', '/objects/ui.colour/restore', t.alice, {
      version_hash: s.v1,
      rationale: 'back to the first red',
    });
    expect(r.status).toBe(201);
    expect(r.body.proposal).toMatchObject({ intent: 'restore', status: 'committed' });
    expect(r.body.committed).toMatchObject({ version_id: 3, parent_version_hash: s.v2 });
    expect(r.body.committed.content.text).toBe(s.colourTexts[0]);

    const after = await api('GET', '/objects/ui.colour/versions', t.val);
    expect(after.body.versions.map((v: any) => v.version_hash)).toEqual([
      ...hashes,
      r.body.committed.version_hash,
    ]);
    const prov = await api('GET', '/objects/ui.colour/provenance', t.val);
    expect(prov.body.object.status).toBe('active');
    expect(prov.body.restorable.map((v: any) => v.version_hash)).toEqual(hashes);
    expect(prov.body.built_from_old).toEqual([
      { artifact_id: 'settings-blue-button', version_id: 2 },
    ]);
    expect(prov.body.epistemic).toBe('preference');
  });

  it('reads back the archive, and answers unknown ids with typed 404s', async () => {
    const messages = await api('GET', '/messages', t.val);
    expect(messages.body.messages.map((m: any) => m.actor)).toEqual([
      'alice',
      'assistant',
      'alice',
      'alice',
    ]);
    const spec = await api('GET', '/messages/spec-v2', t.val);
    expect(spec.body.text).toBe(SPEC);
    const codes = await Promise.all(
      [
        '/messages/nope',
        '/objects/nope',
        '/objects/nope/versions',
        '/objects/nope/provenance',
        `/proposals/prop_${'0'.repeat(16)}`,
        '/artifacts/nope',
      ].map(async (path) => {
        const r = await api('GET', path, t.val);
        return [r.status, r.body.error.code];
      }),
    );
    expect(codes).toEqual([
      [404, 'UNKNOWN_MESSAGE'],
      [404, 'UNKNOWN_OBJECT'],
      [404, 'UNKNOWN_OBJECT'],
      [404, 'UNKNOWN_OBJECT'],
      [404, 'UNKNOWN_PROPOSAL'],
      [404, 'UNKNOWN_ARTIFACT'],
    ]);
  });

  it('owners manage tokens; the secret appears only in the creation response', async () => {
    const created = await api('POST', '/tokens', t.alice, { principal: 'carol', role: 'viewer' });
    expect(created.status).toBe(201);
    expect(created.body.token).toMatch(/^cnr_/);
    expect(created.body.info).toMatchObject({ principal: 'carol', role: 'viewer', project: P });
    const carol = created.body.token as string;
    expect((await api('GET', '/board', carol)).status).toBe(200);

    const byEditor = await api('POST', '/tokens', t.bob, { principal: 'mallory', role: 'owner' });
    expect(byEditor.status).toBe(403);
    const list = await api('GET', '/tokens', t.alice);
    expect(list.status).toBe(200);
    expect(list.body.tokens.map((x: any) => x.principal)).toContain('carol');
    expect(JSON.stringify(list.body)).not.toContain('cnr_');

    const revoked = await api('DELETE', `/tokens/${created.body.info.token_id}`, t.alice);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ token_id: created.body.info.token_id, revoked: true });
    const gone = await api('GET', '/board', carol);
    expect(gone.status).toBe(401);
    expect(gone.body.error.code).toBe('UNAUTHENTICATED');
    expect(gone.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const twice = await api('DELETE', `/tokens/${created.body.info.token_id}`, t.alice);
    expect(twice.status).toBe(404);
  });

  it('guards the journal routes with the same tokens', async () => {
    expect((await api('GET', '/journal', null)).status).toBe(401);
    const read = await api('GET', '/journal?limit=5', t.val);
    expect(read.status).toBe(200);
    // The data directory's classifier file, imported at start (the operator's: redacted to others).
    expect(read.body.entries[0]).toMatchObject({ seq: 1, redacted: true });
    expect(read.body.entries[1].kind).toBe('canon.message');
    expect((await api('GET', '/journal/verify', t.val)).body.ok).toBe(true);
  });
});
