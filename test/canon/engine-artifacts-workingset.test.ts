// LCSM §10 artifact staleness and §8/§9 working sets on a real runtime, for each storage engine.
// Artifacts: every §10 state is reached by moving canon under a registered manifest (current,
// possibly stale when only sources/confidence/title moved, definitely stale, unaffected by an
// unrelated move, requiring regeneration when a tool made it, requiring human review when a person
// had accepted it), and only owners and editors decide acceptance. Working sets, for an objective
// and for one object: current notes, applicable policy, dependencies, the prior mutation and its
// gate, exact source spans, pending contradictions, open uncertainty and dependent artifacts — no
// superseded or retired content, no other project's objects, and `tokens` is the capsule's count.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CanonryRuntime } from '../../src/app/index.js';
import {
  type ArtifactManifest,
  artifactState,
  artifactStatusPage,
  type NoteContent,
  registerArtifact,
  reviewArtifact,
  type WorkingSet,
  workingSet,
} from '../../src/canon/index.js';
import { contentHash, countTokens } from '../../src/core/index.js';
import {
  archivedSource,
  CANON_ENGINES,
  canonState,
  create,
  currentHash,
  type EngineRuntime,
  expectCode,
  note,
  PROJECT,
  principals,
  section,
  update,
} from '../helpers/canon.js';

const { owner, editor, agent, viewer } = principals();

for (const engine of CANON_ENGINES) {
  describe.skipIf(!engine.available)(`LCSM §10 artifacts on ${engine.name}`, () => {
    let env: EngineRuntime;
    let runtime: CanonryRuntime;
    let n = 0;
    beforeAll(async () => {
      env = await engine.open();
      runtime = env.runtime;
    });
    afterAll(async () => env?.close());

    /** A fresh object and an artifact built from its current version. */
    const built = async (
      manifest: Partial<Record<'tool_or_model_refs' | 'acceptance_state', unknown>> = {},
      content: Partial<NoteContent> = {},
    ) => {
      const id = `art.obj-${++n}`;
      await create(runtime, owner, id, { text: 'The header is tall.', ...content });
      const artifact = await registerArtifact(runtime.canon, owner, {
        artifact_id: `art-${n}`,
        canonical_note_versions: [{ object_id: id, version_hash: await currentHash(runtime, id) }],
        output_digest: contentHash({ n }),
        ...manifest,
      });
      return { id, artifact };
    };
    const stateOf = async (artifact: ArtifactManifest, moved?: string) => {
      const reader = runtime.canon.reader(PROJECT);
      const manifest = (await reader.artifact(artifact.artifact_id))!;
      return artifactState(manifest, await reader.lookup(), moved);
    };

    it('current: canon has not moved', async () => {
      const { artifact } = await built();
      expect((await stateOf(artifact)).state).toBe('current');
      const listed = await artifactStatusPage(runtime.canon.readerAs(PROJECT), { limit: 1000 });
      expect(listed.find((s) => s.manifest.artifact_id === artifact.artifact_id)!.state).toBe(
        'current',
      );
    });

    it('possibly stale: only the sources and confidence moved', async () => {
      const { id, artifact } = await built();
      const s = await archivedSource(runtime, owner, 'Measured: the header is tall.');
      await update(runtime, owner, id, { confidence_state: 'sourced', sources: [s.source] });
      const status = await stateOf(artifact);
      expect(status.state).toBe('possibly_stale');
      expect(status.reasons).toEqual([`${id} now v2, statement unchanged`]);
    });

    it('possibly stale: only the title moved', async () => {
      const { id, artifact } = await built();
      await update(runtime, owner, id, { title: 'Header' });
      expect((await stateOf(artifact)).state).toBe('possibly_stale');
    });

    it('definitely stale: the statement changed', async () => {
      const { id, artifact } = await built();
      await update(runtime, owner, id, { text: 'The header is short.' });
      const status = await stateOf(artifact);
      expect(status.state).toBe('definitely_stale');
      expect(status.reasons).toEqual([`${id} changed, now v2`]);
    });

    it('definitely stale: the object was superseded, or retired', async () => {
      const a = await built();
      await runtime.canon.propose(owner, {
        object_id: `${a.id}.next`,
        intent: 'supersede',
        base_version: null,
        supersedes: [a.id],
        candidate: note({ text: 'The header is gone.' }),
      });
      const superseded = await stateOf(a.artifact);
      expect(superseded.state).toBe('definitely_stale');
      expect(superseded.reasons).toEqual([`${a.id} superseded by ${a.id}.next`]);
      const b = await built();
      const current = (await runtime.canon.reader(PROJECT).current(b.id))!;
      await runtime.canon.propose(owner, {
        object_id: b.id,
        intent: 'retire',
        base_version: current.version_hash,
        candidate: current.content,
      });
      expect((await stateOf(b.artifact)).reasons).toEqual([`${b.id} retired`]);
    });

    it('unaffected: the object that moved is not one it depends on', async () => {
      const { id, artifact } = await built();
      const other = await built();
      await update(runtime, owner, other.id, { text: 'Something else entirely.' });
      expect((await stateOf(artifact, other.id)).state).toBe('unaffected');
      expect((await stateOf(artifact, id)).state).toBe('current');
      expect((await stateOf(other.artifact, other.id)).state).toBe('definitely_stale');
    });

    it('requires regeneration: a tool made it and its input changed', async () => {
      const { id, artifact } = await built({ tool_or_model_refs: ['codegen@1'] });
      await update(runtime, owner, id, { text: 'The header is short.' });
      expect((await stateOf(artifact)).state).toBe('requires_regeneration');
    });

    it('a rejected tool-made artifact is only definitely stale', async () => {
      const { id, artifact } = await built({ tool_or_model_refs: ['codegen@1'] });
      await reviewArtifact(runtime.canon, editor, artifact.artifact_id, 'rejected');
      await update(runtime, owner, id, { text: 'The header is short.' });
      expect((await stateOf(artifact)).state).toBe('definitely_stale');
    });

    it('requires human review: a person accepted it, then canon moved', async () => {
      const { id, artifact } = await built({ tool_or_model_refs: ['codegen@1'] });
      const reviewed = await reviewArtifact(
        runtime.canon,
        editor,
        artifact.artifact_id,
        'accepted',
      );
      expect(reviewed).toMatchObject({ acceptance_state: 'accepted', artifact_version: 2 });
      expect((await stateOf(artifact)).state).toBe('current');
      const moved = await update(runtime, owner, id, { text: 'The header is short.' });
      // The commit names the artifact it made stale, and the state it is in now.
      expect(moved.receipt.affected_dependents).toEqual([
        {
          id: artifact.artifact_id,
          kind: 'artifact',
          depth: 1,
          state: 'requires_human_review',
          cause: `${id} changed, now v2`,
        },
      ]);
      expect((await stateOf(artifact)).state).toBe('requires_human_review');
    });

    it('only owners and editors decide acceptance', async () => {
      const { id } = await built();
      const hash = await currentHash(runtime, id);
      const manifest = {
        artifact_id: `art-acc-${++n}`,
        canonical_note_versions: [{ object_id: id, version_hash: hash }],
        output_digest: contentHash('x'),
      };
      await expectCode(registerArtifact(runtime.canon, viewer, manifest), 'FORBIDDEN');
      await expectCode(
        registerArtifact(runtime.canon, agent, { ...manifest, acceptance_state: 'accepted' }),
        'FORBIDDEN',
      );
      await registerArtifact(runtime.canon, agent, manifest);
      await expectCode(
        reviewArtifact(runtime.canon, agent, manifest.artifact_id, 'accepted'),
        'FORBIDDEN',
      );
      await expectCode(
        reviewArtifact(runtime.canon, editor, manifest.artifact_id, 'approved'),
        'INVALID_ARTIFACT',
      );
      await expectCode(
        reviewArtifact(runtime.canon, editor, 'no-such', 'accepted'),
        'UNKNOWN_ARTIFACT',
      );
      await expectCode(
        registerArtifact(runtime.canon, owner, {
          ...manifest,
          canonical_note_versions: [{ object_id: 'art.other', version_hash: hash }],
        }),
        'UNKNOWN_VERSION',
      );
    });

    // reviewArtifact lets only owners and editors decide acceptance; re-registering the same
    // artifact_id must not let an agent overturn that decision.
    it("an agent cannot overturn a person's review by re-registering the artifact", async () => {
      const { id, artifact } = await built();
      await reviewArtifact(runtime.canon, editor, artifact.artifact_id, 'accepted');
      const before = await canonState(runtime);
      const again = {
        artifact_id: artifact.artifact_id,
        canonical_note_versions: [{ object_id: id, version_hash: await currentHash(runtime, id) }],
        output_digest: contentHash('replaced by the agent'),
      };
      await expectCode(
        registerArtifact(runtime.canon, agent, { ...again, acceptance_state: 'rejected' }),
        'FORBIDDEN',
      );
      await expectCode(registerArtifact(runtime.canon, agent, again), 'FORBIDDEN');
      expect(await canonState(runtime)).toEqual(before);
      expect((await runtime.canon.reader(PROJECT).artifact(artifact.artifact_id))!).toMatchObject({
        acceptance_state: 'accepted',
      });
    });

    /**
     * Runs `work` so that `meanwhile` runs to its end between the manifest `work` reads and the
     * entry `work` appends: the next append of the journal waits for it.
     */
    async function interleaved<T>(work: () => Promise<T>, meanwhile: () => Promise<unknown>) {
      const journal = runtime.canon.journal;
      const append = journal.append.bind(journal);
      const spy = vi.spyOn(journal, 'append').mockImplementationOnce(async (...args) => {
        await meanwhile();
        return append(...args);
      });
      try {
        return await work();
      } finally {
        spy.mockRestore();
      }
    }

    it("a person's review that lands while an agent re-registers: CONFLICT, the review stands", async () => {
      const { id, artifact } = await built();
      const again = {
        artifact_id: artifact.artifact_id,
        canonical_note_versions: [{ object_id: id, version_hash: await currentHash(runtime, id) }],
        output_digest: contentHash('replaced by the agent'),
      };
      let reviewed: ArtifactManifest | undefined;
      await expectCode(
        interleaved(
          () => registerArtifact(runtime.canon, agent, again),
          async () => {
            reviewed = await reviewArtifact(
              runtime.canon,
              editor,
              artifact.artifact_id,
              'accepted',
            );
          },
        ),
        'CONFLICT',
      );
      expect(reviewed).toMatchObject({ artifact_version: 2, acceptance_state: 'accepted' });
      expect((await runtime.canon.reader(PROJECT).artifact(artifact.artifact_id))!).toEqual(
        reviewed,
      );
    });

    it('a manifest that moves while it is reviewed: CONFLICT, never two versions of one number', async () => {
      const { id, artifact } = await built();
      // The other review lands first: this one decided on a manifest that is no longer current.
      await expectCode(
        interleaved(
          () => reviewArtifact(runtime.canon, editor, artifact.artifact_id, 'rejected'),
          () => reviewArtifact(runtime.canon, owner, artifact.artifact_id, 'accepted'),
        ),
        'CONFLICT',
      );
      // A re-registration lands first: the review would accept what the reviewer never saw.
      const rebuilt = {
        artifact_id: artifact.artifact_id,
        canonical_note_versions: [{ object_id: id, version_hash: await currentHash(runtime, id) }],
        output_digest: contentHash('built again'),
      };
      await expectCode(
        interleaved(
          () => reviewArtifact(runtime.canon, editor, artifact.artifact_id, 'accepted'),
          () => registerArtifact(runtime.canon, owner, rebuilt),
        ),
        'CONFLICT',
      );
      // Two registrations at once: one is version 2; the other is refused, not a second version 2.
      await expectCode(
        interleaved(
          () => registerArtifact(runtime.canon, owner, rebuilt),
          () => registerArtifact(runtime.canon, owner, rebuilt),
        ),
        'CONFLICT',
      );
      const entries = [];
      for (let page = await runtime.journal.read(PROJECT, { limit: 1_000 }); page.length > 0; ) {
        entries.push(...page);
        page = await runtime.journal.read(PROJECT, { after: page.at(-1)!.seq, limit: 1_000 });
      }
      const versions = entries
        .filter((e) => e.kind === 'canon.artifact')
        .map((e) => (e.body as { manifest: ArtifactManifest }).manifest)
        .filter((m) => m.artifact_id === artifact.artifact_id)
        .map((m) => [m.artifact_version, m.acceptance_state, m.output_digest]);
      expect(versions).toEqual([
        [1, 'proposed', artifact.output_digest],
        [2, 'accepted', artifact.output_digest],
        [3, 'proposed', rebuilt.output_digest],
        [4, 'proposed', rebuilt.output_digest],
      ]);
    });

    it('a supersede committed at once lists the artifacts built from what it replaces', async () => {
      const { id, artifact } = await built();
      const o = await runtime.canon.propose(owner, {
        object_id: `${id}.auto`,
        intent: 'supersede',
        base_version: null,
        supersedes: [id],
        candidate: note({ text: 'Replaced at once.' }),
      });
      expect(o.proposal.status).toBe('committed');
      expect(o.proposal.comparison.checks.dependents_made_stale.items).toContain(
        artifact.artifact_id,
      );
      expect(o.receipt.affected_dependents).toEqual([
        {
          id: artifact.artifact_id,
          kind: 'artifact',
          depth: 1,
          state: 'definitely_stale',
          cause: `${id} superseded by ${id}.auto`,
        },
      ]);
    });

    // The same supersede held for approval: its commit must name the same stale artifacts.
    it('an approved supersede lists the artifacts built from what it replaces', async () => {
      const { id, artifact } = await built();
      const o = await runtime.canon.propose(owner, {
        object_id: `${id}.held`,
        intent: 'supersede',
        base_version: null,
        supersedes: [id],
        candidate: note({ text: 'Replaced after review.', tags: ['identity'] }),
      });
      expect(o.proposal.gate.label).toBe('HARD_STOP');
      expect(o.proposal.comparison.checks.dependents_made_stale.items).toContain(
        artifact.artifact_id,
      );
      const approved = await runtime.canon.approve(owner, o.proposal.proposal_id);
      expect(approved.proposal.status).toBe('committed');
      expect(approved.receipt.affected_dependents).toEqual([
        {
          id: artifact.artifact_id,
          kind: 'artifact',
          depth: 1,
          state: 'definitely_stale',
          cause: `${id} superseded by ${id}.held`,
        },
      ]);
    });
  });

  describe.skipIf(!engine.available)(`LCSM §8/§9 working sets on ${engine.name}`, () => {
    let env: EngineRuntime;
    let runtime: CanonryRuntime;
    let paletteSource: { message_id: string; span: readonly [number, number]; quote: string };
    let pendingOrange: string;
    const rival = principals('rival');
    beforeAll(async () => {
      env = await engine.open();
      runtime = env.runtime;
      await create(runtime, owner, 'ui.theme', {
        object_type: 'preference',
        title: 'Interface theme',
        text: 'The interface palette is teal.',
      });
      await create(runtime, owner, 'brand.fonts', {
        title: 'Typeface',
        text: 'The typeface is Inter.',
      });
      const src = await archivedSource(
        runtime,
        owner,
        'Brand review, final: the palette is ink and violet.',
        'the palette is ink and violet',
      );
      paletteSource = src.source;
      const palette = await runtime.canon.propose(owner, {
        object_id: 'design.palette',
        intent: 'supersede',
        base_version: null,
        supersedes: ['ui.theme'],
        candidate: note({
          object_type: 'decision',
          title: 'Palette',
          text: 'The palette is ink and violet.',
          confidence_state: 'sourced',
          sources: [src.source],
          dependency_refs: ['brand.fonts'],
        }),
      });
      expect(palette.proposal.status).toBe('committed');
      await create(runtime, owner, 'brand.policy', {
        object_type: 'policy',
        title: 'Brand rule',
        text: 'Never ship colours outside the approved set.',
      });
      await create(runtime, owner, 'screen.settings', {
        object_type: 'plan',
        title: 'Settings screen',
        text: 'The settings screen uses the palette.',
        dependency_refs: ['design.palette'],
      });
      await create(runtime, owner, 'q.dark-mode', {
        object_type: 'question',
        title: 'Dark mode',
        text: 'Should dark mode ship in v1?',
        confidence_state: 'uncertain',
      });
      await create(runtime, owner, 'old.logo', {
        title: 'Logo',
        text: 'The logo is a copper fox on the settings screen.',
      });
      const logo = (await runtime.canon.reader(PROJECT).current('old.logo'))!;
      await runtime.canon.propose(owner, {
        object_id: 'old.logo',
        intent: 'retire',
        base_version: logo.version_hash,
        candidate: logo.content,
      });
      await registerArtifact(runtime.canon, agent, {
        artifact_id: 'settings-mock',
        title: 'Settings mock-up',
        canonical_note_versions: [
          {
            object_id: 'design.palette',
            version_hash: await currentHash(runtime, 'design.palette'),
          },
        ],
        tool_or_model_refs: ['mock-tool'],
        output_digest: contentHash({ mock: 'settings' }),
      });
      const orange = await update(runtime, agent, 'design.palette', {
        text: 'The palette is ink and orange.',
      });
      expect(orange.proposal.status).toBe('pending');
      pendingOrange = orange.proposal.proposal_id;
      // Another project with overlapping words.
      await create(runtime, rival.owner, 'rival.palette', {
        object_type: 'decision',
        title: 'Palette',
        text: 'The palette is neon green for the settings screen.',
      });
      await create(runtime, rival.owner, 'rival.policy', {
        object_type: 'policy',
        title: 'Rival rule',
        text: 'Never use violet in the settings screen.',
      });
    });
    afterAll(async () => env?.close());

    const ids = (notes: WorkingSet['notes']) => notes.map((x) => x.object_id);
    const expectClean = (set: WorkingSet) => {
      const all = [...set.notes, ...set.policies, ...set.dependencies, ...set.uncertainty];
      for (const gone of ['ui.theme', 'old.logo', 'rival.palette', 'rival.policy']) {
        expect(ids(all)).not.toContain(gone);
      }
      for (const text of ['teal', 'copper fox', 'neon green', 'Never use violet', 'Rival rule']) {
        expect(set.capsule).not.toContain(text);
      }
      expect(set.excluded).toBe(2);
      expect(set.tokens).toBe(countTokens(set.capsule));
      expect(set.project).toBe(PROJECT);
    };

    it('for an objective: current notes, policy, dependencies, mutation, sources, contradictions, uncertainty, artifacts', async () => {
      const set = await workingSet(runtime.canon, PROJECT, {
        objective: 'Design the settings screen in the palette',
      });
      expect(ids(set.notes)).toEqual(expect.arrayContaining(['design.palette', 'screen.settings']));
      expect(ids(set.policies)).toEqual(['brand.policy']);
      expect(ids([...set.notes, ...set.dependencies])).toContain('brand.fonts');
      expect(set.prior_mutations).toContainEqual({
        object_id: 'design.palette',
        from_version: null,
        to_version: 1,
        intent: 'supersede',
        restored_version: null,
        resolution: null,
        gate: 'AUTO_COMMIT',
        stakes: 'S2',
        authorized_by: `${owner.id} (owner)`,
      });
      const palette = set.notes.find((x) => x.object_id === 'design.palette')!;
      expect(palette.sources).toEqual([paletteSource]);
      const message = (await runtime.canon.reader(PROJECT).message(paletteSource.message_id))!;
      expect(message.text.slice(paletteSource.span[0], paletteSource.span[1])).toBe(
        paletteSource.quote,
      );
      expect(palette.authority).toContain('gate AUTO_COMMIT');
      expect(set.contradictions).toContainEqual({
        proposal_id: pendingOrange,
        object_id: 'design.palette',
        status: 'pending',
        text: 'The palette is ink and orange.',
        needs: 'editor',
      });
      expect(ids(set.uncertainty)).toEqual(['q.dark-mode']);
      expect(set.artifacts).toEqual([
        {
          artifact_id: 'settings-mock',
          title: 'Settings mock-up',
          state: 'current',
          acceptance: 'proposed',
          reasons: [],
        },
      ]);
      // The capsule: the current palette with its exact quote; orange only as a pending proposal.
      expect(section(set.capsule, 'Current notes')).toContain('The palette is ink and violet.');
      expect(set.capsule).toContain(
        `${paletteSource.message_id}[${paletteSource.span[0]}:${paletteSource.span[1]}] "${paletteSource.quote}"`,
      );
      expect(section(set.capsule, 'Current notes')).not.toContain('orange');
      expect(
        section(set.capsule, 'Open contradictions and pending proposals (not canon)'),
      ).toContain('orange');
      expect(section(set.capsule, 'Applicable policy and constraints')).toContain(
        'Never ship colours',
      );
      expect(section(set.capsule, 'Open uncertainty')).toContain('dark mode');
      expect(section(set.capsule, 'Artifacts')).toContain('settings-mock');
      // Two lines a note, nothing said twice: no status when active, no target version, no title.
      const lines = set.capsule.split('\n');
      const at = lines.findIndex((l) => l.startsWith('- design.palette '));
      expect(lines[at]).toMatch(
        /^- design\.palette v1 [a-z_]+ decision: The palette is ink and violet\.$/,
      );
      const span = `${paletteSource.message_id}[${paletteSource.span[0]}:${paletteSource.span[1]}]`;
      expect(lines[at + 1]).toBe(
        `  S2 supersede by ${owner.id}/owner, gate AUTO_COMMIT; source ${span} "${paletteSource.quote}"`,
      );
      expect(lines).toContain('- settings-mock: current, proposed');
      expectClean(set);
    });

    it('for an object: it, its dependencies and dependents, and everything about them', async () => {
      const set = await workingSet(runtime.canon, PROJECT, { object_id: 'design.palette' });
      expect(set.notes[0]!.object_id).toBe('design.palette');
      expect(ids([...set.notes, ...set.dependencies])).toEqual(
        expect.arrayContaining(['brand.fonts', 'screen.settings']),
      );
      expect(ids(set.policies)).toEqual(['brand.policy']);
      expect(set.prior_mutations.find((m) => m.object_id === 'design.palette')).toMatchObject({
        intent: 'supersede',
        gate: 'AUTO_COMMIT',
        authorized_by: `${owner.id} (owner)`,
      });
      expect(set.contradictions.map((c) => c.proposal_id)).toEqual([pendingOrange]);
      expect(ids(set.uncertainty)).toEqual(['q.dark-mode']);
      expect(set.artifacts.map((a) => a.artifact_id)).toEqual(['settings-mock']);
      expect(set.notes[0]!.sources).toEqual([paletteSource]);
      expectClean(set);
    });

    it('a superseded, retired, unknown or foreign object has no working set', async () => {
      for (const id of ['ui.theme', 'old.logo', 'no.such', 'rival.palette']) {
        await expectCode(workingSet(runtime.canon, PROJECT, { object_id: id }), 'UNKNOWN_OBJECT');
      }
    });

    it("another project's working set holds only its own objects", async () => {
      const set = await workingSet(runtime.canon, 'rival', {
        objective: 'Design the settings screen in the palette',
      });
      expect(
        ids([...set.notes, ...set.policies, ...set.dependencies, ...set.uncertainty]).sort(),
      ).toEqual(['rival.palette', 'rival.policy']);
      expect(set.capsule).toContain('neon green');
      for (const text of ['ink and violet', 'Inter', 'orange', 'dark mode', 'settings-mock']) {
        expect(set.capsule).not.toContain(text);
      }
      expect(set.contradictions).toEqual([]);
      expect(set.artifacts).toEqual([]);
      expect(set.excluded).toBe(0);
      expect(set.tokens).toBe(countTokens(set.capsule));
    });

    // "How it became current" must name the mutation that produced the current version, even when
    // proposals commit in another order than they were made.
    it('the prior mutation is the one that made the current version', async () => {
      await create(runtime, owner, 'wp.obj', { text: 'Uploads are capped at 10 MB.' });
      const held = await update(runtime, agent, 'wp.obj', {
        object_type: 'decision',
        text: 'Uploads are capped at 10 MB. Admins may lift the cap.',
      });
      expect(held.proposal.status).toBe('pending');
      await update(runtime, owner, 'wp.obj', { text: 'Uploads are capped at 20 MB.' });
      await expectCode(runtime.canon.approve(editor, held.proposal.proposal_id), 'STALE_APPROVAL');
      const done = await runtime.canon.approve(editor, held.proposal.proposal_id, {
        base_version: await currentHash(runtime, 'wp.obj'),
      });
      expect(done.committed!.version_id).toBe(3);
      const set = await workingSet(runtime.canon, PROJECT, { object_id: 'wp.obj' });
      expect(set.prior_mutations).toEqual([
        {
          object_id: 'wp.obj',
          from_version: 2,
          to_version: 3,
          intent: 'update',
          restored_version: null,
          resolution: null,
          gate: done.proposal.gate.label,
          stakes: done.proposal.comparison.stakes,
          authorized_by: `${editor.id} (editor)`,
        },
      ]);
      // The base (v2, the version before) goes unsaid; the capsule names stakes, intent, who, gate.
      const lines = set.capsule.split('\n');
      const at = lines.findIndex((l) => l.startsWith('- wp.obj v3 '));
      expect(lines[at + 1]).toMatch(
        new RegExp(
          `^ {2}${done.proposal.comparison.stakes} update by ${agent.id}/agent, approved ${editor.id}/editor, gate ${done.proposal.gate.label}$`,
        ),
      );
      expect(set.capsule).not.toContain(' from v');
    });

    it('a restore names the version it brought back', async () => {
      const versions = await runtime.canon.reader(PROJECT).versions('wp.obj');
      const first = versions.find((x) => x.version_id === 1)!;
      const restored = await runtime.canon.restore(owner, 'wp.obj', first.version_hash);
      // Removing "Admins may lift the cap" asks for confirmation; the owner gives it.
      expect(restored.proposal).toMatchObject({ intent: 'restore', status: 'pending' });
      const done = await runtime.canon.approve(owner, restored.proposal.proposal_id);
      expect(done.committed!.version_id).toBe(4);
      const set = await workingSet(runtime.canon, PROJECT, { object_id: 'wp.obj' });
      expect(set.prior_mutations).toEqual([
        expect.objectContaining({
          from_version: 3,
          to_version: 4,
          intent: 'restore',
          restored_version: 1,
          resolution: null,
        }),
      ]);
      const lines = set.capsule.split('\n');
      const at = lines.findIndex((l) => l.startsWith('- wp.obj v4 '));
      // v1's content comes back whole, its type with it.
      expect(lines[at]).toBe('- wp.obj v4 asserted fact: Uploads are capped at 10 MB.');
      expect(lines[at + 1]).toMatch(
        new RegExp(`^ {2}S[0-3] restore of v1 by ${owner.id}/owner, self-approved, gate [A-Z_]+$`),
      );
    });
  });
}
