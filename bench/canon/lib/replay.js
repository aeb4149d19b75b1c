// @ts-check
/**
 * Replays scenario events through a real canonry runtime (SQLite in a temporary directory): messages
 * through `intake` with the scenario's scripted classifier, and the board actions (proposal, approve,
 * reject, restore, artifact, review) through `canon` and the artifact operations. Used by the
 * generator (to check each event has the effect the story intends) and by the runner.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCanonry } from 'canonry/app';
import {
  archiveMessage,
  intake,
  registerArtifact,
  reviewArtifact,
  ScriptedClassifier,
} from 'canonry/canon';
import { contentHash } from 'canonry/core';
import { everyArtifactStatus } from './artifact-states.js';

/**
 * One event of a scenario (see bench/canon/README.md for the format).
 * @typedef {object} ScenarioEvent
 * @property {string} id `e0001`…, unique in the scenario; also the archived message id
 * @property {string} project
 * @property {string} actor principal id
 * @property {'owner' | 'editor' | 'agent' | 'viewer'} role the principal's token role
 * @property {'user' | 'assistant' | 'agent' | 'tool'} speaker the message role
 * @property {'message' | 'proposal' | 'approve' | 'reject' | 'restore' | 'artifact' | 'review'} kind
 * @property {string} text what was said (for board actions: the comment archived with the action)
 * @property {string} beat what the event is in the story (establish, correction, suggestion, …)
 * @property {string} [ref] approve/reject: the event whose proposal is decided
 * @property {string} [object_id] approve/reject/restore/proposal: the object
 * @property {number} [version] restore: the version_id to bring back
 * @property {string} [reason] reject: the reason recorded
 * @property {string} [intent] proposal: the intent (`supersede`)
 * @property {string[]} [supersedes] proposal: the objects replaced
 * @property {string} [quote] proposal: the sentence of `text` cited as the source
 * @property {Record<string, unknown>} [candidate] proposal: object_type, title, text, tags, confidence_state
 * @property {string} [artifact_id] artifact/review
 * @property {string} [title] artifact
 * @property {string[]} [depends_on] artifact: object ids whose current versions it is built from
 * @property {'accepted' | 'rejected'} [acceptance] review
 */

/**
 * What one event did in canon.
 * @typedef {object} EventResult
 * @property {{ object_id: string, ok: boolean, status?: string, code?: string, required_role?: string | null, proposal_id?: string, label?: string }[]} proposals
 * @property {string} [outcome] the classification outcome (messages)
 * @property {string} [error] a board action that failed: its error code
 */

/** A fresh runtime in a temporary directory. */
export async function openRuntime() {
  const dir = mkdtempSync(join(tmpdir(), 'canonry-bench-canon-'));
  const runtime = await createCanonry({ dataDir: dir, logLevel: 'silent' });
  return {
    runtime,
    close: async () => {
      await runtime.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The error code of a thrown CanonryError (or the thrown value as text). @param {unknown} err */
export const codeOf = (err) =>
  typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : String(err);

/** Applies events of one scenario to one runtime, remembering which proposal each event made. */
export class Replay {
  /**
   * @param {import('canonry/app').CanonryRuntime} runtime
   * @param {Record<string, import('canonry/canon').ScriptedConfig>} classifiers per project
   */
  constructor(runtime, classifiers) {
    this.runtime = runtime;
    this.canon = runtime.canon;
    /** @type {Map<string, ScriptedClassifier>} */
    this.classifiers = new Map(
      Object.entries(classifiers).map(([project, config]) => [
        project,
        new ScriptedClassifier(config),
      ]),
    );
    /** event id → object id → proposal id */
    /** @type {Map<string, Map<string, string>>} */
    this.refs = new Map();
  }

  /** @param {ScenarioEvent} e @returns {import('canonry/canon').Principal} */
  principal(e) {
    return { id: e.actor, project: e.project, role: e.role };
  }

  /** @param {ScenarioEvent} e */
  async #archive(e) {
    return archiveMessage(this.canon, this.principal(e), {
      text: e.text,
      role: e.speaker,
      message_id: e.id,
    });
  }

  /**
   * @param {string} eventId
   * @param {import('canonry/canon').ProposalOutcome} outcome
   */
  #remember(eventId, outcome) {
    const byObject = this.refs.get(eventId) ?? new Map();
    byObject.set(outcome.proposal.object_id, outcome.proposal.proposal_id);
    this.refs.set(eventId, byObject);
  }

  /** @param {import('canonry/canon').ProposalOutcome} o */
  static summary(o) {
    return {
      object_id: o.proposal.object_id,
      ok: true,
      status: o.proposal.status,
      required_role: o.proposal.required_role,
      proposal_id: o.proposal.proposal_id,
      label: o.proposal.gate.label,
    };
  }

  /**
   * Applies one event.
   * @param {ScenarioEvent} e
   * @returns {Promise<EventResult>}
   */
  async apply(e) {
    const principal = this.principal(e);
    const canon = this.canon;
    switch (e.kind) {
      case 'message': {
        const classifier = this.classifiers.get(e.project);
        if (!classifier) throw new Error(`no classifier for project ${e.project}`);
        const r = await intake(canon, classifier, principal, {
          text: e.text,
          role: e.speaker,
          message_id: e.id,
        });
        return {
          outcome: r.classification.outcome,
          proposals: r.proposals.map((p) => {
            if (!p.ok) return { object_id: p.object_id, ok: false, code: p.code };
            this.#remember(e.id, p.outcome);
            return Replay.summary(p.outcome);
          }),
        };
      }
      case 'proposal': {
        const message = await this.#archive(e);
        const quote = /** @type {string} */ (e.quote);
        const start = message.text.indexOf(quote);
        if (start < 0) throw new Error(`${e.id}: quote not in text`);
        try {
          const outcome = await canon.propose(principal, {
            object_id: /** @type {string} */ (e.object_id),
            intent: /** @type {any} */ (e.intent),
            base_version: null,
            supersedes: e.supersedes ?? [],
            message_id: message.message_id,
            candidate: /** @type {any} */ ({
              shape: null,
              status: 'active',
              visibility: 'project',
              dependency_refs: [],
              effective_from: null,
              effective_until: null,
              tags: [],
              ...e.candidate,
              sources: [
                { message_id: message.message_id, span: [start, start + quote.length], quote },
              ],
            }),
          });
          this.#remember(e.id, outcome);
          return { proposals: [Replay.summary(outcome)] };
        } catch (err) {
          return { proposals: [], error: codeOf(err) };
        }
      }
      case 'approve':
      case 'reject': {
        await this.#archive(e);
        const id = this.refs
          .get(/** @type {string} */ (e.ref))
          ?.get(/** @type {string} */ (e.object_id));
        if (!id) return { proposals: [], error: 'NO_PROPOSAL' };
        try {
          if (e.kind === 'reject') {
            const p = await canon.reject(principal, id, e.reason ?? e.text);
            return {
              proposals: [{ object_id: p.object_id, ok: true, status: p.status, proposal_id: id }],
            };
          }
          return { proposals: [Replay.summary(await canon.approve(principal, id))] };
        } catch (err) {
          return { proposals: [], error: codeOf(err) };
        }
      }
      case 'restore': {
        await this.#archive(e);
        const objectId = /** @type {string} */ (e.object_id);
        const versions = await canon.reader(e.project).versions(objectId);
        const target = versions.find((v) => v.version_id === e.version);
        if (!target) return { proposals: [], error: 'UNKNOWN_VERSION' };
        try {
          const outcome = await canon.restore(principal, objectId, target.version_hash, e.text);
          this.#remember(e.id, outcome);
          return { proposals: [Replay.summary(outcome)] };
        } catch (err) {
          return { proposals: [], error: codeOf(err) };
        }
      }
      case 'artifact': {
        await this.#archive(e);
        const reader = canon.reader(e.project);
        const notes = [];
        for (const objectId of e.depends_on ?? []) {
          const object = await reader.object(objectId);
          if (object) notes.push({ object_id: objectId, version_hash: object.current_version_ref });
        }
        try {
          await registerArtifact(canon, principal, {
            artifact_id: e.artifact_id,
            title: e.title,
            input_refs: [e.id],
            canonical_note_versions: notes,
            tool_or_model_refs: [e.actor],
            output_digest: contentHash({ event: e.id, notes }),
          });
          return { proposals: [] };
        } catch (err) {
          return { proposals: [], error: codeOf(err) };
        }
      }
      case 'review': {
        await this.#archive(e);
        try {
          await reviewArtifact(
            canon,
            principal,
            /** @type {string} */ (e.artifact_id),
            e.acceptance,
          );
          return { proposals: [] };
        } catch (err) {
          return { proposals: [], error: codeOf(err) };
        }
      }
      default:
        throw new Error(`unknown event kind ${/** @type {any} */ (e).kind}`);
    }
  }

  /** The current objects of a project, by id. @param {string} project */
  async objects(project) {
    const all = await this.canon.reader(project).objects();
    return new Map(all.map((o) => [o.object_id, o]));
  }

  /** Every version of an object. @param {string} project @param {string} objectId */
  versions(project, objectId) {
    return this.canon.reader(project).versions(objectId);
  }

  /** The artifacts of a project with their §10 state. @param {string} project */
  artifacts(project) {
    return everyArtifactStatus(this.canon, project);
  }
}
