// LCSM §5 two-note comparison and §6 stakes, computed by canon on a real runtime for each storage
// engine: every one of the eight questions has a case where canon answers yes and one where it
// answers no, and the stakes S0–S3 come from what the mutation changes (never from the proposer).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CanonryRuntime } from '../../src/app/index.js';
import {
  classifyStakes,
  compareNotes,
  type NoteContent,
  type NoteVersion,
  type ProposalIntent,
  type ProposalOutcome,
  proposalInput,
  ROLES,
  registerArtifact,
  withinAuthority,
} from '../../src/canon/index.js';
import { type ContentHash, contentHash } from '../../src/core/index.js';
import {
  archivedSource,
  CANON_ENGINES,
  create,
  currentHash,
  type EngineRuntime,
  expectCode,
  note,
  PROJECT,
  principals,
  update,
} from '../helpers/canon.js';

const { owner, editor, agent } = principals();

for (const engine of CANON_ENGINES) {
  describe.skipIf(!engine.available)(`LCSM §5/§6 comparison on ${engine.name}`, () => {
    let env: EngineRuntime;
    let runtime: CanonryRuntime;
    beforeAll(async () => {
      env = await engine.open();
      runtime = env.runtime;
    });
    afterAll(async () => env?.close());

    const checksOf = (o: ProposalOutcome) => o.proposal.comparison.checks;
    const propose = async (
      id: string,
      intent: ProposalIntent,
      candidate: Partial<NoteContent> = {},
      who = owner,
    ) => {
      const current = await runtime.canon.reader(PROJECT).current(id);
      return runtime.canon.propose(who, {
        object_id: id,
        intent,
        base_version: current?.version_hash ?? null,
        candidate: current ? { ...current.content, ...candidate } : note(candidate),
      });
    };

    describe('information removed', () => {
      it('yes: a sentence of the current note is gone', async () => {
        await create(runtime, owner, 'ir.sentence', { text: 'Alpha is on. Beta is off.' });
        const o = await update(runtime, owner, 'ir.sentence', { text: 'Alpha is on.' });
        expect(checksOf(o).information_removed.result).toBe(true);
        expect(checksOf(o).information_removed.items).toEqual(['beta is off.']);
        expect(o.receipt.warnings.join(' ')).toContain('removed: beta is off.');
      });
      it('yes: a shape field is gone', async () => {
        await create(runtime, owner, 'ir.shape', { shape: { width: 1, height: 2 } });
        const o = await update(runtime, owner, 'ir.shape', { shape: { width: 1 } });
        expect(checksOf(o).information_removed).toMatchObject({
          result: true,
          items: ['shape.height'],
        });
      });
      it('yes: retiring removes the statement', async () => {
        await create(runtime, owner, 'ir.retire', { text: 'Gamma ships in May.' });
        const o = await propose('ir.retire', 'retire');
        expect(checksOf(o).information_removed).toMatchObject({
          result: true,
          items: ['Gamma ships in May.'],
        });
        expect((await runtime.canon.reader(PROJECT).object('ir.retire'))!.status).toBe('retired');
      });
      it('no: the candidate keeps every sentence and field', async () => {
        await create(runtime, owner, 'ir.kept', {
          text: 'Alpha is on.',
          shape: { width: 1 },
        });
        const o = await update(runtime, owner, 'ir.kept', {
          text: 'Alpha is on. Gamma is new.',
          shape: { width: 1, depth: 3 },
        });
        expect(checksOf(o).information_removed).toMatchObject({ result: false, items: [] });
      });
    });

    describe('source or authority change', () => {
      it('yes: a new source is cited', async () => {
        const a = await archivedSource(runtime, owner, 'The cache holds 1 GB.');
        const b = await archivedSource(runtime, owner, 'Measured: the cache holds 1 GB.');
        await create(runtime, owner, 'sa.added', {
          text: 'The cache holds 1 GB.',
          sources: [a.source],
        });
        const o = await update(runtime, owner, 'sa.added', { sources: [a.source, b.source] });
        expect(checksOf(o).source_or_authority_change.result).toBe(true);
        expect(checksOf(o).source_or_authority_change.items).toEqual([`+${b.message_id}`]);
      });
      it('yes: a source is dropped', async () => {
        const a = await archivedSource(runtime, owner, 'The queue is FIFO.');
        await create(runtime, owner, 'sa.dropped', {
          text: 'The queue is FIFO.',
          sources: [a.source],
        });
        const o = await update(runtime, owner, 'sa.dropped', { sources: [] });
        expect(checksOf(o).source_or_authority_change).toMatchObject({
          result: true,
          items: [`-${a.message_id}`],
        });
      });
      it('yes: an agent edits what the owner authorized', async () => {
        await create(runtime, owner, 'sa.agent', { text: 'Logs rotate daily.' });
        const o = await update(runtime, agent, 'sa.agent', {
          text: 'Logs rotate daily. They are kept a week.',
        });
        expect(checksOf(o).source_or_authority_change.result).toBe(true);
        expect(checksOf(o).source_or_authority_change.detail).toBe(
          'authority changes from owner to agent',
        );
      });
      it('no: a creation has no current source or authority to change', async () => {
        const a = await archivedSource(runtime, owner, 'The port is 7070.');
        const o = await create(runtime, owner, 'sa.create', { sources: [a.source] });
        expect(checksOf(o).source_or_authority_change.result).toBe(false);
      });
      // The same principal role, the same sources: nothing about source or authority changes.
      it('no: the owner edits the text of what the owner authorized, same sources', async () => {
        const a = await archivedSource(runtime, owner, 'Backups run nightly.');
        await create(runtime, owner, 'sa.same', {
          text: 'Backups run nightly.',
          sources: [a.source],
        });
        const o = await update(runtime, owner, 'sa.same', {
          text: 'Backups run nightly. They are encrypted.',
        });
        // The current side of the two-note view names who authorized it, in the candidate's shape.
        expect(o.proposal.comparison.current.authority).toEqual({
          principal: owner.id,
          role: 'owner',
        });
        expect(checksOf(o).source_or_authority_change.detail).toBe('same sources and authority');
        expect(checksOf(o).source_or_authority_change.result).toBe(false);
      });
    });

    describe('certainty raised without evidence', () => {
      it('yes: asserted → verified with no new source', async () => {
        await create(runtime, owner, 'cr.raised', { text: 'The disk is SSD.' });
        const o = await update(runtime, owner, 'cr.raised', { confidence_state: 'verified' });
        expect(checksOf(o).certainty_raised_without_evidence.result).toBe(true);
        // Raising certainty without evidence needs confirmation from anyone, even the owner.
        expect(o.proposal.gate.label).toBe('REQUIRE_CONFIRMATION');
        expect(o.committed).toBeNull();
      });
      it('yes: a creation claiming verified with no source', async () => {
        const o = await create(runtime, owner, 'cr.create', { confidence_state: 'verified' });
        expect(checksOf(o).certainty_raised_without_evidence.result).toBe(true);
      });
      it('no: asserted → sourced, citing a new source', async () => {
        await create(runtime, owner, 'cr.sourced', { text: 'The region is eu-west.' });
        const s = await archivedSource(runtime, owner, 'Per the contract, the region is eu-west.');
        const o = await update(runtime, owner, 'cr.sourced', {
          confidence_state: 'sourced',
          sources: [s.source],
        });
        expect(checksOf(o).certainty_raised_without_evidence.result).toBe(false);
      });
      it('no: certainty lowered', async () => {
        await create(runtime, owner, 'cr.lowered', { text: 'The CDN is fast.' });
        const o = await update(runtime, owner, 'cr.lowered', { confidence_state: 'uncertain' });
        expect(checksOf(o).certainty_raised_without_evidence.result).toBe(false);
      });
    });

    describe('suggestion turned into a directive', () => {
      it('yes: a provisional, inferred preference becomes a decision', async () => {
        await create(runtime, owner, 'sd.pref', {
          object_type: 'preference',
          text: 'Tabs might read better.',
          status: 'provisional',
          confidence_state: 'inferred',
        });
        const o = await update(runtime, owner, 'sd.pref', {
          object_type: 'decision',
          status: 'active',
          text: 'The editor uses tabs.',
        });
        expect(checksOf(o).suggestion_to_directive.result).toBe(true);
        expect(checksOf(o).suggestion_to_directive.detail).toBe('a suggestion becomes a decision');
      });
      it('yes: an assistant suggestion proposed as a decision', async () => {
        const o = await runtime.canon.propose(
          owner,
          {
            object_id: 'sd.assistant',
            intent: 'create',
            base_version: null,
            candidate: note({ object_type: 'decision', text: 'We use Postgres.' }),
          },
          { fromSuggestion: true },
        );
        expect(checksOf(o).suggestion_to_directive.result).toBe(true);
      });
      it('no: a preference stays a preference', async () => {
        await create(runtime, owner, 'sd.stays', {
          object_type: 'preference',
          text: 'Dark mode is nicer.',
          status: 'provisional',
        });
        const o = await update(runtime, owner, 'sd.stays', {
          text: 'Dark mode is nicer at night.',
        });
        expect(checksOf(o).suggestion_to_directive.result).toBe(false);
      });
      it('no: an asserted fact gains a modal word but was never a suggestion', async () => {
        await create(runtime, owner, 'sd.fact', { text: 'Requests are signed.' });
        const o = await update(runtime, owner, 'sd.fact', {
          text: 'Requests are signed. Tokens must rotate.',
        });
        expect(checksOf(o).suggestion_to_directive.result).toBe(false);
      });
    });

    describe('dispute collapsed', () => {
      it('yes: a disputed object is settled by an update', async () => {
        await create(runtime, owner, 'dc.settle', {
          text: 'The SLA is 99.9%.',
          status: 'disputed',
        });
        const o = await update(runtime, owner, 'dc.settle', { status: 'active' });
        expect(checksOf(o).dispute_collapsed.result).toBe(true);
        expect(o.proposal.gate.label).toBe('REQUIRE_CONFIRMATION');
      });
      it('no: the update keeps it disputed', async () => {
        await create(runtime, owner, 'dc.keep', { text: 'The SLA is 99.5%.', status: 'disputed' });
        const o = await update(runtime, owner, 'dc.keep', {
          text: 'The SLA is 99.5%. Finance disagrees.',
        });
        expect(checksOf(o).dispute_collapsed.result).toBe(false);
      });
      it('no: an active object has no dispute to collapse', async () => {
        await create(runtime, owner, 'dc.none', { text: 'The SLA is 99%.' });
        // A dispute states a competing claim (repeating the disputed statement is refused).
        const o = await propose('dc.none', 'dispute', {
          status: 'disputed',
          text: 'The SLA is 99.5%.',
        });
        expect(checksOf(o).dispute_collapsed.result).toBe(false);
      });
    });

    describe('dependents made stale', () => {
      it('yes: an artifact was built from the current version', async () => {
        await create(runtime, owner, 'ds.art', { text: 'The logo is round.' });
        await registerArtifact(runtime.canon, owner, {
          artifact_id: 'ds-logo-svg',
          canonical_note_versions: [
            { object_id: 'ds.art', version_hash: await currentHash(runtime, 'ds.art') },
          ],
          output_digest: contentHash({ svg: 'round' }),
        });
        const o = await update(runtime, owner, 'ds.art', { text: 'The logo is square.' });
        expect(checksOf(o).dependents_made_stale).toMatchObject({
          result: true,
          items: ['ds-logo-svg'],
        });
        expect(o.receipt.affected_dependents).toEqual([
          {
            id: 'ds-logo-svg',
            kind: 'artifact',
            depth: 1,
            state: 'definitely_stale',
            cause: 'ds.art changed, now v2',
          },
        ]);
      });
      it('yes: another object depends on it', async () => {
        await create(runtime, owner, 'ds.base', { text: 'The API is REST.' });
        await create(runtime, owner, 'ds.client', {
          text: 'The client calls the REST API.',
          dependency_refs: ['ds.base'],
        });
        const o = await update(runtime, owner, 'ds.base', { text: 'The API is gRPC.' });
        expect(checksOf(o).dependents_made_stale).toMatchObject({
          result: true,
          items: ['ds.client'],
        });
      });
      it('no: the only artifact was built from an older version', async () => {
        await create(runtime, owner, 'ds.old', { text: 'The font is serif.' });
        const v1 = await currentHash(runtime, 'ds.old');
        await registerArtifact(runtime.canon, owner, {
          artifact_id: 'ds-old-poster',
          canonical_note_versions: [{ object_id: 'ds.old', version_hash: v1 }],
          output_digest: contentHash({ poster: 1 }),
        });
        await update(runtime, owner, 'ds.old', { text: 'The font is sans.' });
        const o = await update(runtime, owner, 'ds.old', { text: 'The font is mono.' });
        expect(checksOf(o).dependents_made_stale).toMatchObject({ result: false, items: [] });
      });
    });

    describe('reversible', () => {
      it('yes: an ordinary edit stays restorable', async () => {
        const o = await create(runtime, owner, 'rv.plain');
        expect(checksOf(o).reversible.result).toBe(true);
      });
      it.each(['external', 'irreversible'])('no: tagged %s', async (tag) => {
        const o = await create(runtime, owner, `rv.${tag}`, { tags: [tag] });
        expect(checksOf(o).reversible.result).toBe(false);
        expect(o.proposal.comparison.stakes).toBe('S3');
        expect(o.proposal.gate.label).toBe('HARD_STOP');
      });
    });

    describe("within the actor's authority", () => {
      it('no: an agent at S2', async () => {
        const o = await create(runtime, agent, 'wa.agent-s2', { object_type: 'decision' });
        expect(o.proposal.comparison.stakes).toBe('S2');
        expect(checksOf(o).within_authority.result).toBe(false);
        expect(checksOf(o).within_authority.detail).toBe(
          'agent may authorize up to S1; this is S2',
        );
      });
      it('yes: an agent at S1', async () => {
        const o = await create(runtime, agent, 'wa.agent-s1');
        expect(o.proposal.comparison.stakes).toBe('S1');
        expect(checksOf(o).within_authority.result).toBe(true);
      });
      it('no: an editor at S3; yes: the owner at S3', async () => {
        const e = await create(runtime, editor, 'wa.editor-s3', { tags: ['identity'] });
        expect(checksOf(e).within_authority.result).toBe(false);
        const o = await create(runtime, owner, 'wa.owner-s3', { tags: ['identity'] });
        expect(checksOf(o).within_authority.result).toBe(true);
      });
    });

    describe('stakes', () => {
      it('S0: a title-only update', async () => {
        await create(runtime, owner, 'st.title', { title: 'Old title' });
        const o = await update(runtime, owner, 'st.title', { title: 'New title' });
        expect(o.proposal.comparison.stakes).toBe('S0');
        expect(o.proposal.gate.label).toBe('AUTO_COMMIT');
      });
      it('S1: a title and text update of a fact', async () => {
        await create(runtime, owner, 'st.text', { title: 'Old', text: 'It is old.' });
        const o = await update(runtime, owner, 'st.text', { title: 'New', text: 'It is new.' });
        expect(o.proposal.comparison.stakes).toBe('S1');
      });
      it.each([
        ['decision', { object_type: 'decision' }],
        ['policy', { object_type: 'policy' }],
        ['budget tag', { tags: ['budget'] }],
        ['permission tag', { tags: ['permission'] }],
      ] as const)('S2: %s', async (name, change) => {
        const o = await create(runtime, owner, `st.s2-${name.replace(' ', '-')}`, change);
        expect(o.proposal.comparison.stakes).toBe('S2');
      });
      it.each(['identity', 'financial', 'legal', 'publication'])('S3: %s tag', async (tag) => {
        const o = await create(runtime, owner, `st.s3-${tag}`, { tags: [tag] });
        expect(o.proposal.comparison.stakes).toBe('S3');
      });
      it('S3 stays S3 when the candidate drops the tag (the current note counts)', async () => {
        await create(runtime, owner, 'st.drop', { tags: ['financial'] });
        await runtime.canon.approve(
          owner,
          (await runtime.canon.reader(PROJECT).proposals('pending')).find(
            (p) => p.object_id === 'st.drop',
          )!.proposal_id,
        );
        const o = await update(runtime, owner, 'st.drop', { tags: [] });
        expect(o.proposal.comparison.stakes).toBe('S3');
      });
      it('S3: a decision flagged for oversight waits for the owner, also when an agent drops the flag', async () => {
        await create(runtime, owner, 'st.watch', {
          object_type: 'decision',
          text: 'We deploy on Tuesdays.',
          tags: ['oversight'],
        });
        const pending = (await runtime.canon.reader(PROJECT).proposals('pending')).find(
          (p) => p.object_id === 'st.watch',
        )!;
        expect(pending.comparison.stakes).toBe('S3');
        expect(pending.gate.label).toBe('HARD_STOP');
        await runtime.canon.approve(owner, pending.proposal_id);
        const o = await update(runtime, agent, 'st.watch', { text: 'We deploy daily.', tags: [] });
        expect(o.proposal.comparison.stakes).toBe('S3');
        expect(o.proposal.gate.label).toBe('HARD_STOP');
        expect(o.committed).toBeNull();
      });
      it('S2: a fact superseding a decision', async () => {
        await create(runtime, owner, 'st.dec', { object_type: 'decision', text: 'We use A.' });
        const o = await runtime.canon.propose(owner, {
          object_id: 'st.fact',
          intent: 'supersede',
          base_version: null,
          supersedes: ['st.dec'],
          candidate: note({ text: 'B replaced A.' }),
        });
        expect(o.proposal.comparison.stakes).toBe('S2');
      });
      // §14: "no automatic promotion of private chat to public registry"; the personal plane is a
      // permission boundary, so moving a note out of it is not presentation-only.
      it('a personal note promoted to the project plane is not S0', async () => {
        await create(runtime, owner, 'st.private', { visibility: 'personal' });
        const o = await update(runtime, owner, 'st.private', { visibility: 'project' });
        expect(o.proposal.comparison.stakes).not.toBe('S0');
      });
    });

    it('the comparison is computed, never taken from the proposal payload', async () => {
      const base = {
        object_id: 'cp.payload',
        intent: 'create',
        base_version: null,
        candidate: note(),
      };
      await expectCode(
        Promise.resolve().then(() => proposalInput({ ...base, comparison: { stakes: 'S0' } })),
        'INVALID_PROPOSAL',
      );
      await expectCode(
        Promise.resolve().then(() => proposalInput({ ...base, stakes: 'S0' })),
        'INVALID_PROPOSAL',
      );
      const o = await runtime.canon.propose(agent, proposalInput(base));
      expect(o.proposal.comparison.candidate.authority).toEqual({
        principal: agent.id,
        role: 'agent',
      });
    });
  });
}

describe('compareNotes: answers that follow from the notes alone (property)', () => {
  const tag = fc.constantFrom(
    'identity',
    'external',
    'irreversible',
    'budget',
    'permission',
    'ux',
    'docs',
  );
  const content = fc.record({
    object_type: fc.constantFrom('fact', 'preference', 'decision', 'policy', 'question'),
    text: fc.constantFrom('A is on.', 'A is on. B is off.', 'B is off.', 'It must be C.'),
    confidence_state: fc.constantFrom('uncertain', 'inferred', 'asserted', 'sourced', 'verified'),
    status: fc.constantFrom('active', 'provisional', 'disputed'),
    tags: fc.uniqueArray(tag, { maxLength: 3 }),
  });
  const version = (c: NoteContent): NoteVersion => ({
    note_id: 'x',
    version_id: 1,
    parent_version_hash: null,
    content: c,
    shape: c.shape,
    sources: c.sources,
    actor: 'olivia',
    authority: { proposer: { id: 'olivia', role: 'owner' }, approver: null },
    timestamp: '2026-01-01T00:00:00.000Z',
    receipt_ref: `${PROJECT}#1`,
    version_hash: `sha256:${'0'.repeat(64)}` as ContentHash,
  });

  it('stakes, authority and reversibility are functions of the notes and the role', () => {
    fc.assert(
      fc.property(
        fc.option(content, { nil: null }),
        content,
        fc.constantFrom(...ROLES),
        (cur, cand, role) => {
          const current = cur ? version(note(cur as Partial<NoteContent>)) : null;
          const candidate = note(cand as Partial<NoteContent>);
          const intent = current ? 'update' : 'create';
          const c = compareNotes(current, candidate, {
            intent,
            proposer: { id: 'p', project: PROJECT, role },
            dependentArtifacts: [],
            dependentObjects: [],
          });
          expect(c.stakes).toBe(classifyStakes(candidate, current?.content ?? null, intent));
          const tags = new Set([...candidate.tags, ...(current?.content.tags ?? [])]);
          if (tags.has('identity') || tags.has('external') || tags.has('irreversible'))
            expect(c.stakes).toBe('S3');
          expect(c.checks.within_authority.result).toBe(withinAuthority(role, c.stakes));
          expect(c.checks.reversible.result).toBe(
            !candidate.tags.includes('external') && !candidate.tags.includes('irreversible'),
          );
          expect(c.checks.dependents_made_stale.result).toBe(false);
          if (!current) expect(c.checks.information_removed.result).toBe(false);
        },
      ),
      { numRuns: 300 },
    );
  });
});
