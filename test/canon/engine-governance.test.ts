// Proposal governance on a real runtime, for each storage engine: a hedged source turns a directive
// into `suggestion_to_directive` (judged on the quoted sentence, no configuration); an approval after
// STALE_APPROVAL commits only when it names the new base; a stale create is closed, never version 2;
// the `tool` role (its own observations commit, anything else waits for a person, it never approves)
// and the documented role × change × stakes matrix checked against the gate; closed proposals show no
// pending role; and a rebuild from the journal reproduces every table byte for byte.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CanonryRuntime } from '../../src/app/index.js';
import { type GateInput, runGate } from '../../src/canon/gate.js';
import {
  archiveMessage,
  type Principal,
  ROLES,
  type Role,
  STAKES,
  type Stakes,
  withinAuthority,
} from '../../src/canon/index.js';
import { rebuildProject, verifyProject } from '../../src/journal/index.js';
import {
  CANON_ENGINES,
  canonState,
  canonTables,
  create,
  currentHash,
  type EngineRuntime,
  expectCode,
  note,
  PROJECT,
  principals,
  update,
} from '../helpers/canon.js';

const { owner, editor, agent, tool, viewer } = principals();

/** A documented matrix (docs/governance.md, src/canon/README.md): role|change|stakes → label. */
function documentedMatrix(path = '../../docs/governance.md'): Map<string, string> {
  const doc = readFileSync(new URL(path, import.meta.url), 'utf8');
  const table = doc.split('<!-- gate-matrix:start -->')[1]!.split('<!-- gate-matrix:end -->')[0]!;
  const rows = table
    .trim()
    .split('\n')
    .slice(2)
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim()),
    );
  const cells = new Map<string, string>();
  for (const [role, change, ...labels] of rows) {
    (['S1', 'S2', 'S3'] as const).forEach((s, i) => {
      cells.set(`${role}|${change}|${s}`, labels[i]!);
    });
  }
  return cells;
}

const CHANGES = ['create', 'correct own', "correct another's"] as const;

/** The gate input of one documented cell: the change with nothing else of concern. */
function cellInput(role: Role, change: (typeof CHANGES)[number], stakes: Stakes): GateInput {
  const correction = change !== 'create';
  return {
    stakes,
    role,
    intent: correction ? 'update' : 'create',
    object_type: stakes === 'S2' ? 'decision' : 'fact',
    information_removed: correction,
    source_or_authority_change: correction,
    certainty_raised_without_evidence: false,
    suggestion_to_directive: false,
    dispute_collapsed: false,
    dependents_made_stale: false,
    reversible: true,
    within_authority: withinAuthority(role, stakes),
    type_changed: false,
    corrects_own: change === 'correct own',
  };
}

for (const engine of CANON_ENGINES) {
  describe.skipIf(!engine.available)(`proposal governance on ${engine.name}`, () => {
    let env: EngineRuntime;
    let runtime: CanonryRuntime;
    let n = 0;
    const fresh = (prefix: string) => `${prefix}.${++n}`;
    beforeAll(async () => {
      env = await engine.open();
      runtime = env.runtime;
    });
    afterAll(async () => env?.close());

    /** Archives `text` as `who` and returns a source quoting `quote` of it. */
    const said = async (who: Principal, text: string, quote = text) => {
      const m = await archiveMessage(runtime.canon, who, { text });
      const start = text.indexOf(quote);
      return {
        message_id: m.message_id,
        source: {
          message_id: m.message_id,
          span: [start, start + quote.length] as [number, number],
          quote,
        },
      };
    };

    describe('suggestion → directive from the source (§5)', () => {
      // An active note phrased with "must" is a directive; as a fact it is S1, so for an agent the
      // hedge alone decides between AUTO_COMMIT and REQUIRE_CONFIRMATION.
      const directive = (source: { message_id: string; span: [number, number]; quote: string }) =>
        create(runtime, agent, fresh('h.deploy'), {
          text: 'Deploys must happen on Fridays.',
          sources: [source],
        });

      it.each([
        ['Maybe we could deploy on Fridays.', 'maybe'],
        ['What if we deploy on Fridays?', 'what if'],
        ['Should we deploy on Fridays?', 'should we'],
        ['How about we deploy on Fridays.', 'how about'],
        ['I wonder whether to deploy on Fridays.', 'i wonder'],
        ['Perhaps deploy on Fridays.', 'perhaps'],
        ['So we deploy on Fridays?', '?'],
      ])('"%s" hedges ("%s"): the directive needs confirmation', async (text, cue) => {
        const { source, message_id } = await said(owner, text, 'deploy on Fridays');
        const o = await directive(source);
        const check = o.proposal.comparison.checks.suggestion_to_directive;
        expect(check.result).toBe(true);
        expect(check.items).toEqual([`${message_id}[0:${text.length}]: "${cue}"`]);
        expect(check.detail).toMatch(/source hedged/);
        expect(o.proposal.gate.label).toBe('REQUIRE_CONFIRMATION');
        expect(o.committed).toBeNull();
      });

      it('a plain statement does not hedge: the same directive commits', async () => {
        const { source } = await said(owner, 'We deploy on Fridays.', 'deploy on Fridays');
        const o = await directive(source);
        expect(o.proposal.comparison.checks.suggestion_to_directive.result).toBe(false);
        expect(o.proposal.gate.label).toBe('AUTO_COMMIT');
        expect(o.committed?.version_id).toBe(1);
      });

      it('judged on the quoted sentence: the settled sentence is not hedged, the question is', async () => {
        const text = 'We decided to deploy on Fridays. Should we also deploy on Mondays?';
        const settled = await said(owner, text, 'deploy on Fridays');
        expect(
          (await directive(settled.source)).proposal.comparison.checks.suggestion_to_directive
            .result,
        ).toBe(false);
        const asked = await said(owner, text, 'deploy on Mondays');
        const o = await create(runtime, agent, fresh('h.monday'), {
          text: 'Deploys must happen on Mondays.',
          sources: [asked.source],
        });
        expect(o.proposal.comparison.checks.suggestion_to_directive.items).toEqual([
          `${asked.message_id}[33:66]: "should we"`,
        ]);
        expect(o.proposal.gate.label).toBe('REQUIRE_CONFIRMATION');
      });

      it('a decision from a hedged message (message_id, no span) is flagged; from a settled one it is not', async () => {
        const hedged = await said(owner, 'Maybe we could ship on Fridays?');
        const settled = await said(owner, 'We ship on Fridays.');
        const decide = (message_id: string) =>
          create(
            runtime,
            editor,
            fresh('h.ship'),
            { object_type: 'decision', text: 'We ship on Fridays.' },
            { message_id },
          );
        const flagged = await decide(hedged.message_id);
        expect(flagged.proposal.comparison.checks.suggestion_to_directive.result).toBe(true);
        // For a person the finding is shown, not a hold: the editor's S2 decision commits.
        expect(flagged.proposal.gate.label).toBe('AUTO_COMMIT');
        const plain = await decide(settled.message_id);
        expect(plain.proposal.comparison.checks.suggestion_to_directive.result).toBe(false);
      });

      it('a candidate that stays below asserted is not a directive claim', async () => {
        const { source } = await said(
          owner,
          'Maybe we could deploy on Fridays.',
          'deploy on Fridays',
        );
        const o = await create(runtime, agent, fresh('h.inferred'), {
          text: 'Deploys must happen on Fridays.',
          confidence_state: 'inferred',
          sources: [source],
        });
        expect(o.proposal.comparison.checks.suggestion_to_directive.result).toBe(false);
      });

      it('a re-comparison judges the hedge again from the archive', async () => {
        const id = fresh('h.recompare');
        await create(runtime, owner, id, { text: 'Deploys happen on Thursdays.' });
        const { source } = await said(
          owner,
          'Maybe we could deploy on Fridays?',
          'deploy on Fridays',
        );
        const held = await update(runtime, agent, id, {
          text: 'Deploys must happen on Fridays.',
          sources: [source],
        });
        expect(held.proposal.comparison.checks.suggestion_to_directive.result).toBe(true);
        await update(runtime, owner, id, { title: 'Deploy day' });
        await expectCode(
          runtime.canon.approve(editor, held.proposal.proposal_id),
          'STALE_APPROVAL',
        );
        const again = (await runtime.canon.reader(PROJECT).proposal(held.proposal.proposal_id))!;
        expect(again.comparison.checks.suggestion_to_directive.result).toBe(true);
      });
    });

    describe('stale approval that stays safe', () => {
      /** An agent's pending correction of an owner's note, then canon moved by the owner. */
      const movedUnder = async () => {
        const id = fresh('s.obj');
        await create(runtime, owner, id, { text: 'The release train is weekly.' });
        const v1 = await currentHash(runtime, id);
        const held = await update(runtime, agent, id, {
          text: 'The release train is weekly. Hotfixes ship daily.',
        });
        expect(held.proposal).toMatchObject({ status: 'pending', approval_requires_base: null });
        const v2 = (await update(runtime, owner, id, { text: 'The release train is biweekly.' }))
          .committed!.version_hash;
        return { id, v1, v2, proposalId: held.proposal.proposal_id };
      };

      it('the same approval again does not commit; one naming the new base does', async () => {
        const { id, v1, v2, proposalId } = await movedUnder();
        const stale = await expectCode(runtime.canon.approve(editor, proposalId), 'STALE_APPROVAL');
        expect(stale.details).toMatchObject({ closed: false, approval_requires_base: v2 });
        const recompared = (await runtime.canon.reader(PROJECT).proposal(proposalId))!;
        expect(recompared).toMatchObject({
          status: 'pending',
          base_version: v2,
          approval_requires_base: v2,
          required_role: 'editor',
        });
        // What it would now overwrite: the owner's v2, whose sentence the candidate drops.
        expect(recompared.comparison.current.content?.text).toBe('The release train is biweekly.');
        expect(recompared.comparison.checks.information_removed.items).toContain(
          'the release train is biweekly.',
        );

        const before = await canonState(runtime);
        for (const approval of [{}, { base_version: v1 }, { base_version: null }]) {
          const err = await expectCode(
            runtime.canon.approve(editor, proposalId, approval),
            'BASE_NOT_ACKNOWLEDGED',
          );
          expect(err.details).toMatchObject({
            proposal_id: proposalId,
            approval_requires_base: v2,
          });
        }
        expect(await canonState(runtime)).toEqual(before);

        const done = await runtime.canon.approve(editor, proposalId, { base_version: v2 });
        expect(done.committed).toMatchObject({ version_id: 3, parent_version_hash: v2 });
        expect(done.proposal).toMatchObject({
          status: 'committed',
          required_role: null,
          approval_role: 'editor',
          approval_requires_base: null,
          decided_by: editor,
        });
        expect(await currentHash(runtime, id)).toBe(done.committed!.version_hash);
      });

      it('canon moving again after the re-comparison makes the acknowledged base stale too', async () => {
        const { id, v2, proposalId } = await movedUnder();
        await expectCode(runtime.canon.approve(editor, proposalId), 'STALE_APPROVAL');
        const v3 = (await update(runtime, owner, id, { title: 'Release train' })).committed!
          .version_hash;
        const err = await expectCode(
          runtime.canon.approve(editor, proposalId, { base_version: v2 }),
          'STALE_APPROVAL',
        );
        expect(err.details).toMatchObject({ approval_requires_base: v3 });
        await expectCode(
          runtime.canon.approve(editor, proposalId, { base_version: v2 }),
          'BASE_NOT_ACKNOWLEDGED',
        );
        const done = await runtime.canon.approve(editor, proposalId, { base_version: v3 });
        expect(done.committed?.version_id).toBe(4);
      });

      it('a first approval may name its base: the right one commits, a wrong one is refused', async () => {
        const id = fresh('s.first');
        await create(runtime, owner, id, { text: 'Logs are kept 30 days.' });
        const v1 = await currentHash(runtime, id);
        const a = await update(runtime, agent, id, { text: 'Logs are kept 90 days.' });
        const before = await canonState(runtime);
        await expectCode(
          runtime.canon.approve(editor, a.proposal.proposal_id, { base_version: null }),
          'BASE_NOT_ACKNOWLEDGED',
        );
        expect(await canonState(runtime)).toEqual(before);
        const done = await runtime.canon.approve(editor, a.proposal.proposal_id, {
          base_version: v1,
        });
        expect(done.committed?.version_id).toBe(2);
      });

      it('a create whose object was created meanwhile is closed, never a version 2', async () => {
        const id = fresh('s.create');
        const held = await create(runtime, agent, id, {
          object_type: 'decision',
          text: 'Staging mirrors production.',
        });
        expect(held.proposal.status).toBe('pending');
        const made = await create(runtime, owner, id, { text: 'Staging is a smaller copy.' });
        const err = await expectCode(
          runtime.canon.approve(editor, held.proposal.proposal_id),
          'STALE_APPROVAL',
        );
        expect(err.details).toMatchObject({ closed: true });
        const closed = (await runtime.canon.reader(PROJECT).proposal(held.proposal.proposal_id))!;
        expect(closed).toMatchObject({ status: 'rejected', required_role: null });
        expect(closed.reason).toMatch(/^conflict: .* was created since the comparison/);
        const object = (await runtime.canon.reader(PROJECT).object(id))!;
        expect(object).toMatchObject({
          version_id: 1,
          current_version_ref: made.committed!.version_hash,
          text: 'Staging is a smaller copy.',
        });
        for (const approval of [{}, { base_version: made.committed!.version_hash }]) {
          await expectCode(
            runtime.canon.approve(owner, held.proposal.proposal_id, approval),
            'PROPOSAL_CLOSED',
          );
        }
        expect((await runtime.canon.reader(PROJECT).versions(id)).length).toBe(1);
      });
    });

    describe('closed proposals present no pending role', () => {
      it('pending → required_role; committed or rejected → null, approval_role kept', async () => {
        const id = fresh('r.obj');
        await create(runtime, owner, id, { text: 'Backups run nightly.' });
        const a = await update(runtime, agent, id, { text: 'Backups run hourly.' });
        expect(a.proposal).toMatchObject({
          status: 'pending',
          required_role: 'editor',
          approval_role: 'editor',
        });
        const b = await update(runtime, agent, id, { text: 'Backups run weekly.' });
        const rejected = await runtime.canon.reject(editor, b.proposal.proposal_id, 'no');
        expect(rejected).toMatchObject({
          status: 'rejected',
          required_role: null,
          approval_role: 'editor',
          decided_by: editor,
        });
        const approved = await runtime.canon.approve(editor, a.proposal.proposal_id);
        expect(approved.proposal).toMatchObject({
          status: 'committed',
          required_role: null,
          approval_role: 'editor',
          decided_by: editor,
        });
        const auto = await create(runtime, owner, fresh('r.auto'));
        expect(auto.proposal).toMatchObject({ required_role: null, approval_role: null });
        const hard = await create(runtime, editor, fresh('r.hard'), { tags: ['identity'] });
        expect(hard.proposal).toMatchObject({ required_role: 'owner', approval_role: 'owner' });
        const done = await runtime.canon.approve(owner, hard.proposal.proposal_id);
        expect(done.proposal).toMatchObject({ required_role: null, approval_role: 'owner' });
      });
    });

    describe('the tool role (§6)', () => {
      const observe = (text: string, quote = text) => said(tool, text, quote);

      it('its messages are tool messages; it cannot speak as the user', async () => {
        const m = await archiveMessage(runtime.canon, tool, { text: 'CI: 412 tests passed.' });
        expect(m).toMatchObject({ role: 'tool', actor: tool.id, actor_role: 'tool' });
        await expectCode(
          archiveMessage(runtime.canon, tool, { text: 'Ship it.', role: 'user' }),
          'AUTHORITY_FROM_PAYLOAD',
        );
      });

      it('a sourced fact commits; its own correction commits; nobody else’s does', async () => {
        const id = fresh('t.tests');
        const first = await observe('CI run 41: 412 tests passed.', '412 tests passed');
        const made = await create(runtime, tool, id, {
          text: '412 tests pass.',
          confidence_state: 'sourced',
          sources: [first.source],
        });
        expect(made.proposal.gate.label).toBe('AUTO_COMMIT');
        expect(made.committed?.version_id).toBe(1);

        const second = await observe('CI run 42: 409 tests passed.', '409 tests passed');
        const corrected = await update(runtime, tool, id, {
          text: '409 tests pass.',
          sources: [second.source],
        });
        // A real correction: text and source replaced, which holds an agent back.
        const checks = corrected.proposal.comparison.checks;
        expect(checks.information_removed.result).toBe(true);
        expect(checks.source_or_authority_change.result).toBe(true);
        expect(corrected.proposal.gate.label).toBe('AUTO_COMMIT');
        expect(corrected.committed?.version_id).toBe(2);

        // The same correction by an agent of its own note waits (its words are suggestions).
        const own = fresh('t.agent');
        await create(runtime, agent, own, { text: 'The suite has 412 tests.' });
        const byAgent = await update(runtime, agent, own, {
          text: 'The suite has 409 tests.',
          sources: [second.source],
        });
        expect(byAgent.proposal.gate.label).toBe('REQUIRE_CONFIRMATION');
      });

      it('a correction of a user-authored fact waits for a person, and the tool cannot approve it', async () => {
        const id = fresh('t.user');
        await create(runtime, owner, id, { text: 'The API answers in 200 ms.' });
        const v1 = await currentHash(runtime, id);
        const seen = await observe('Probe: p95 latency 480 ms.', 'p95 latency 480 ms');
        const before = await canonState(runtime);
        const o = await update(runtime, tool, id, {
          text: 'The API answers in 480 ms (p95).',
          confidence_state: 'sourced',
          sources: [seen.source],
        });
        expect(o.proposal).toMatchObject({ status: 'pending', required_role: 'editor' });
        expect(o.proposal.gate.label).toBe('REQUIRE_CONFIRMATION');
        expect(await currentHash(runtime, id)).toBe(v1);
        expect((await canonState(runtime)).versions).toEqual(before.versions);
        const refused = await expectCode(
          runtime.canon.approve(tool, o.proposal.proposal_id),
          'FORBIDDEN',
        );
        expect(refused.details).toMatchObject({ required_role: 'editor' });
        const done = await runtime.canon.approve(editor, o.proposal.proposal_id);
        expect(done.committed?.version_id).toBe(2);
      });

      it('a fact a person approved is no longer the tool’s alone: its correction waits', async () => {
        const id = fresh('t.approved');
        // Sourced without a source raises certainty without evidence: an editor confirms it.
        const held = await create(runtime, tool, id, {
          text: 'Disk usage is 71%.',
          confidence_state: 'sourced',
        });
        expect(held.proposal.gate.label).toBe('REQUIRE_CONFIRMATION');
        await runtime.canon.approve(editor, held.proposal.proposal_id);
        const seen = await observe('Disk usage 74%.');
        const o = await update(runtime, tool, id, {
          text: 'Disk usage is 74%.',
          sources: [seen.source],
        });
        expect(o.proposal.gate.label).toBe('REQUIRE_CONFIRMATION');
      });

      it('a tool never decides: changing a user decision, or superseding, waits', async () => {
        const decision = fresh('t.decision');
        await create(runtime, owner, decision, {
          object_type: 'decision',
          text: 'We support Node 18 and 20.',
        });
        const seen = await observe('Node 18 reached end of life.');
        const changed = await update(runtime, tool, decision, {
          text: 'We support Node 20.',
          sources: [seen.source],
        });
        expect(changed.proposal.comparison.stakes).toBe('S2');
        expect(changed.proposal.gate.label).toBe('REQUIRE_CONFIRMATION');

        const mine = fresh('t.mine');
        await create(runtime, tool, mine, { text: 'Node 18 is supported upstream.' });
        const replaced = await runtime.canon.propose(tool, {
          object_id: fresh('t.replacement'),
          intent: 'supersede',
          base_version: null,
          supersedes: [mine],
          candidate: note({ text: 'Node 18 is end of life.', sources: [seen.source] }),
        });
        expect(replaced.proposal.gate.label).toBe('REQUIRE_CONFIRMATION');
      });
    });

    describe('the documented role × change × stakes matrix is the gate’s', () => {
      it('every cell of docs/governance.md matches the gate, and the canon README says the same', () => {
        const cells = documentedMatrix();
        expect(documentedMatrix('../../src/canon/README.md')).toEqual(cells);
        expect(cells.size).toBe(ROLES.length * CHANGES.length * 3);
        for (const role of ROLES) {
          for (const change of CHANGES) {
            for (const stakes of STAKES.filter((s) => s !== 'S0')) {
              const verdict = runGate(
                runtime.kernel,
                runtime.canon.gate,
                cellInput(role, change, stakes),
              );
              expect(`${role} ${change} ${stakes}: ${verdict.label}`).toBe(
                `${role} ${change} ${stakes}: ${cells.get(`${role}|${change}|${stakes}`)}`,
              );
            }
          }
        }
      });

      it('the S1 cells hold for real proposals of each role', async () => {
        const outcomes: Record<string, string> = {};
        const proposers = { owner, editor, agent, tool };
        for (const [role, who] of Object.entries(proposers)) {
          const seen = await said(who, `Reading ${role}: 5 replicas.`);
          const later = await said(who, `Reading ${role}: 7 replicas.`);
          const own = fresh(`m.${role}`);
          const c = await create(runtime, who, own, {
            text: 'There are 5 replicas.',
            sources: [seen.source],
          });
          const corrected = await update(runtime, who, own, {
            text: 'There are 7 replicas.',
            sources: [later.source],
          });
          const other = fresh(`m.${role}.other`);
          await create(runtime, role === 'owner' ? editor : owner, other, {
            text: 'There are 5 replicas.',
          });
          const theirs = await update(runtime, who, other, {
            text: 'There are 7 replicas.',
            sources: [later.source],
          });
          outcomes[`${role}|create|S1`] = c.proposal.gate.label;
          outcomes[`${role}|correct own|S1`] = corrected.proposal.gate.label;
          outcomes[`${role}|correct another's|S1`] = theirs.proposal.gate.label;
        }
        const cells = documentedMatrix();
        for (const [key, label] of Object.entries(outcomes))
          expect([key, label]).toEqual([key, cells.get(key)]);
        await expectCode(create(runtime, viewer, fresh('m.viewer')), 'FORBIDDEN');
      });
    });

    it('a rebuild from the journal reproduces every table byte for byte', async () => {
      const before = await canonTables(runtime.store);
      await rebuildProject(runtime.journal, PROJECT);
      expect(await canonTables(runtime.store)).toEqual(before);
      expect((await verifyProject(runtime.journal, PROJECT)).ok).toBe(true);
    });
  });
}
