// @ts-check
/**
 * Replays a family scenario through a real canonry runtime and reads canonry's answers to the same
 * questions the baselines answer. Nothing here feeds the expectations: they come from the generator.
 * Where this build lacks a feature a family needs, the event's error code is recorded and the metric
 * is reported as not measured.
 */
import { archiveMessage, isConcern, registerArtifact, workingSet } from 'canonry/canon';
import { contentHash } from 'canonry/core';
import { everyArtifactStatus } from '../artifact-states.js';
import { codeOf } from '../replay.js';
import { ACTORS } from './vocab.js';

/** Artifact §10 states that mean "needs rework". */
export const STALE_ARTIFACT = new Set([
  'possibly_stale',
  'definitely_stale',
  'requires_regeneration',
  'requires_human_review',
]);

/** Person-made changes the gate may hold; the owner (or an editor) gives the confirmation it asks for. */
const CONFIRMED_BEATS = new Set([
  'establish-fact',
  'establish-decision',
  'root-move',
  'revise-dependent',
  'owner-moves',
  'dispute',
  'resolution',
]);

/**
 * What one event did.
 * @typedef {{ proposal_id?: string, status?: string, committed?: boolean, receipt?: any, proposal?: any, error?: string, confirmed?: boolean }} Outcome
 */

/** Applies the events of one family scenario to one runtime. */
export class FamilyReplay {
  /** @param {import('canonry/app').CanonryRuntime} runtime @param {string} project @param {import('./script.js').FamilyEvent[]} events */
  constructor(runtime, project, events) {
    this.canon = runtime.canon;
    this.project = project;
    this.byId = new Map(events.map((e) => [e.id, e]));
    /** @type {Map<string, Outcome>} */
    this.outcomes = new Map();
    this.confirmations = 0;
  }

  /** @param {{ actor: string, role: string }} e @returns {any} */
  principal(e) {
    return { id: e.actor, project: this.project, role: e.role };
  }

  /** @param {string} id */
  head(id) {
    return this.canon.reader(this.project).object(id);
  }

  /** A held person-made change is confirmed by the role the gate names (the story's own confirmation). @param {import('./script.js').FamilyEvent} e @param {any} outcome */
  async #confirm(e, outcome) {
    if (outcome.proposal.status !== 'pending' || !CONFIRMED_BEATS.has(e.beat)) return outcome;
    // The editor confirms what needs an editor (unless the editor proposed it); the owner the rest.
    const editor = ACTORS.editor;
    const owner = ACTORS.owner;
    if (!editor || !owner) throw new Error('the families need an editor and an owner');
    const by =
      outcome.proposal.required_role === 'editor' && e.actor !== editor.id ? editor : owner;
    const approved = await this.canon.approve(
      this.principal({ actor: by.id, role: by.role }),
      outcome.proposal.proposal_id,
    );
    this.confirmations++;
    return { ...approved, confirmed: true };
  }

  /** @param {any} o @returns {Outcome} */
  static outcome(o) {
    return {
      proposal_id: o.proposal.proposal_id,
      status: o.proposal.status,
      committed: o.committed !== null && o.committed !== undefined,
      receipt: o.receipt,
      proposal: o.proposal,
      confirmed: o.confirmed === true,
    };
  }

  /** @param {import('./script.js').FamilyEvent} e */
  async apply(e) {
    const out = await this.#apply(e).catch((err) => ({ error: codeOf(err) }));
    this.outcomes.set(e.id, out);
    return out;
  }

  /** @param {import('./script.js').FamilyEvent} e @returns {Promise<Outcome>} */
  async #apply(e) {
    const canon = this.canon;
    const who = this.principal(e);
    await archiveMessage(canon, who, { text: e.text, role: e.speaker, message_id: e.id });
    const objectId = /** @type {string} */ (e.object_id);
    switch (e.kind) {
      case 'say':
        return {};
      case 'note':
      case 'dispute': {
        const cited = /** @type {import('./script.js').FamilyEvent} */ (
          this.byId.get(e.cites ?? e.id)
        );
        const quote = e.quote ?? cited.text;
        const start = cited.text.indexOf(quote);
        if (start < 0) throw new Error(`${e.id}: quote not in ${cited.id}`);
        const head = await this.head(objectId);
        const outcome = await canon.propose(who, {
          object_id: objectId,
          intent: e.kind === 'dispute' ? 'dispute' : /** @type {any} */ (e.intent),
          base_version:
            e.intent === 'create' || e.intent === 'supersede'
              ? null
              : (head?.current_version_ref ?? null),
          ...(e.intent === 'supersede' ? { supersedes: e.supersedes ?? [] } : {}),
          message_id: e.id,
          candidate: /** @type {any} */ ({
            shape: null,
            status: e.kind === 'dispute' ? 'disputed' : 'active',
            visibility: 'project',
            confidence_state: 'sourced',
            effective_from: null,
            effective_until: null,
            tags: [],
            ...e.candidate,
            dependency_refs: e.depends_on ?? [],
            sources: [{ message_id: cited.id, span: [start, start + quote.length], quote }],
          }),
        });
        return FamilyReplay.outcome(await this.#confirm(e, outcome));
      }
      case 'resolve': {
        const resolve = /** @type {any} */ (canon).resolve;
        if (typeof resolve !== 'function') return { error: 'NO_RESOLVE_IN_THIS_BUILD' };
        const standing = /** @type {import('./script.js').FamilyEvent} */ (
          this.byId.get(/** @type {string} */ (e.standing))
        );
        const current = await canon.reader(this.project).current(objectId);
        const claims = /** @type {any[]} */ (/** @type {any} */ (current)?.claims ?? []);
        const claim = claims.find(
          (c) => c.statement === standing.candidate?.text && c.state === 'open',
        );
        if (!claim) return { error: 'NO_OPEN_CLAIM' };
        const outcome = await resolve.call(canon, who, objectId, claim.claim_id, e.reason);
        return FamilyReplay.outcome(await this.#confirm(e, outcome));
      }
      case 'restore': {
        const versions = await canon.reader(this.project).versions(objectId);
        const target = versions.find((v) => v.version_id === e.version);
        if (!target) return { error: 'UNKNOWN_VERSION' };
        const outcome = await canon.restore(who, objectId, target.version_hash, e.text);
        return FamilyReplay.outcome(await this.#confirm(e, outcome));
      }
      case 'artifact': {
        const reader = canon.reader(this.project);
        const notes = [];
        for (const dep of e.depends_on ?? []) {
          const o = await reader.object(dep);
          if (o) notes.push({ object_id: dep, version_hash: o.current_version_ref });
        }
        await registerArtifact(canon, who, {
          artifact_id: e.artifact_id,
          title: e.title,
          input_refs: [e.id],
          canonical_note_versions: notes,
          tool_or_model_refs: [e.actor],
          output_digest: contentHash({ event: e.id, notes }),
        });
        return {};
      }
      case 'approve': {
        const ref = this.outcomes.get(/** @type {string} */ (e.ref));
        if (!ref?.proposal_id) return { error: 'NO_PROPOSAL' };
        const head = await this.head(objectId);
        const approval =
          e.attempt === 'acknowledged'
            ? { base_version: head?.current_version_ref ?? null }
            : undefined;
        const outcome = await /** @type {any} */ (canon).approve(who, ref.proposal_id, approval);
        return FamilyReplay.outcome(outcome);
      }
      default:
        throw new Error(`unknown event kind ${e.kind}`);
    }
  }

  /** Object reads, the states cascades left (builds with a dependency graph), artifact states and the whole-project capsule. */
  async view() {
    const reader = /** @type {any} */ (this.canon.reader(this.project));
    /** @type {import('canonry/canon').CanonObject[]} */
    const objects = await reader.objects();
    /** @type {{ id: string, kind: string, state: string, depth: number }[]} */
    const states =
      typeof reader.dependencyStates === 'function'
        ? [...(await reader.dependencyStates()).values()]
        : [];
    const artifacts = await everyArtifactStatus(this.canon, this.project);
    const ws = await workingSet(this.canon, this.project, {});
    return { objects, states, artifacts, capsule: ws.capsule };
  }
}

/** Whether an object read carries the cascade's `needs_revision` state (wherever the build puts it). @param {unknown} o */
export const needsRevision = (o) => JSON.stringify(o).includes('"needs_revision"');

/** A receipt's affected dependents as `{ id, depth }` (ids alone from builds that list only ids). @param {any} receipt */
export function affected(receipt) {
  return (receipt?.affected_dependents ?? []).map((/** @type {any} */ d) =>
    typeof d === 'string'
      ? { id: d, depth: null }
      : { id: d.id ?? d.object_id ?? d.artifact_id, depth: d.depth ?? null },
  );
}

/** Whether the suggestion-to-directive check flagged a proposal. @param {any} proposal */
export function hedgedFired(proposal) {
  const check = proposal?.comparison?.checks?.suggestion_to_directive;
  return check ? isConcern('suggestion_to_directive', check.result) : false;
}
