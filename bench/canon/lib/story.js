// @ts-check
/**
 * The story engine behind the generator. A scenario is written event by event: each event is applied
 * to a real canonry runtime as soon as it is written, and the engine checks that canon did exactly what
 * the story means (one draft on the intended object, committed or held by the gate, nothing else).
 * When the gate holds a change a person made, the story adds the confirmation the gate asks for.
 * The story keeps its own model of the truth (current value, who authorized it, which positions were
 * overruled, which artifacts were built on which version); the expectations come from that model and
 * are checked against canon's store at the end.
 */
import { DOMAINS, GENERIC_NEUTRAL, NEUTRAL_MENTIONS, USER_CHATTER } from './domains.js';
import {
  AGENT_STATUS,
  CLAIMS,
  CONFIRMS,
  DISPUTES,
  FORMS,
  fill,
  KIND_FORMS,
  PREFACES,
  REASONS,
  REJECTS,
  RESOLUTIONS,
  RESTORES,
  SPOOFS,
  SUGGESTIONS,
  TOOL_FACTS,
  TOOL_LOGS,
} from './phrasing.js';
import { Replay } from './replay.js';

/** @typedef {import('./domains.js').SubjectTemplate} SubjectTemplate */
/** @typedef {import('./replay.js').ScenarioEvent} ScenarioEvent */
/** @typedef {{ id: string, role: 'owner' | 'editor' | 'agent' | 'viewer', speaker: 'user' | 'assistant' | 'agent' | 'tool' }} Actor */

/**
 * The story's model of one subject.
 * @typedef {object} Subject
 * @property {SubjectTemplate} t
 * @property {boolean} established
 * @property {boolean} live false once superseded by a successor
 * @property {{ text: string, value: string | null, auth: { id: string, role: string } } | null} cur
 * @property {string} status active | provisional | disputed
 * @property {number} versions how many versions canon holds
 * @property {{ text: string, value: string | null }[]} positions every position stated on it
 * @property {string | null} disputed the value under dispute
 * @property {number | null} resolveAt event count at which the dispute is settled
 * @property {string[]} reserved values kept for this project
 */

/**
 * A proposal waiting for a person's decision.
 * @typedef {{ ref: string, key: string, text: string, value: string, due: number, approve: number, ignore: number, required: string | null | undefined }} Open
 */

/**
 * @typedef {object} ProjectState
 * @property {string} name
 * @property {string} client
 * @property {boolean} main
 * @property {Record<string, Actor>} people
 * @property {Map<string, Subject>} subjects
 * @property {Open[]} open
 * @property {Map<string, { title: string, deps: string[], built: Map<string, number>, reviewed: boolean }>} artifacts
 * @property {boolean} clientUsed
 */

const MACHINE = /** @type {const} */ ({
  assistant: 'copilot',
  tool: 'ci-runner',
  coder: 'builder',
});

export class StoryError extends Error {}

export class Story {
  /**
   * @param {{ id: string, rng: import('./rng.js').Rng, domain: import('./domains.js').DomainTemplate, length: number, replay: Replay | null, runtime: import('canonry/app').CanonryRuntime }} options
   */
  constructor({ id, rng, domain, length, runtime }) {
    this.id = id;
    this.rng = rng;
    this.domain = domain;
    this.length = length;
    this.runtime = runtime;
    /** @type {ScenarioEvent[]} */
    this.events = [];
    /** Which subject each event speaks about (for the value-ownership check). */
    /** @type {Map<string, string>} */
    this.eventSubject = new Map();
    /** Counters for the report. */
    /** @type {Record<string, number>} */
    this.beats = {};
    this.k = rng.int(100, 900);
  }

  /** Sets up the two projects, their subjects and classifiers, and the replay. */
  setup() {
    const { rng, domain } = this;
    const [mainIndex, distIndex] = rng.shuffle([0, 1, 2, 3]);
    const subjectCount =
      this.length < 60
        ? 4
        : this.length < 100
          ? 5
          : this.length < 150
            ? 6
            : this.length < 200
              ? 7
              : 99;
    let mainTemplates = rng.shuffle(domain.subjects).slice(0, subjectCount);
    const succ = domain.successor;
    if (succ && this.length >= 150 && !mainTemplates.some((t) => t.key === succ.of)) {
      mainTemplates = [
        ...mainTemplates.slice(0, -1),
        /** @type {SubjectTemplate} */ (domain.subjects.find((t) => t.key === succ.of)),
      ];
    }
    const distTemplates = rng.shuffle(domain.subjects).slice(0, rng.int(3, 5));
    /** @param {number} index @param {boolean} main @returns {ProjectState} */
    const project = (index, main) => {
      const owner = /** @type {string} */ (domain.people.owner[main ? 0 : 1]);
      const editor = /** @type {string} */ (domain.people.editor[main ? 0 : 1]);
      const viewer = /** @type {string} */ (domain.people.viewer[main ? 0 : 1]);
      return {
        name: /** @type {string} */ (domain.projects[index]),
        client: /** @type {string} */ (domain.clients[index]),
        main,
        people: {
          owner: {
            id: main ? owner : rng.pick(domain.people.owner.slice(2)),
            role: 'owner',
            speaker: 'user',
          },
          editor: { id: editor, role: 'editor', speaker: 'user' },
          viewer: { id: viewer, role: 'viewer', speaker: 'user' },
          assistant: { id: MACHINE.assistant, role: 'agent', speaker: 'assistant' },
          tool: { id: MACHINE.tool, role: 'agent', speaker: 'tool' },
          coder: { id: MACHINE.coder, role: 'agent', speaker: 'agent' },
        },
        subjects: new Map(),
        open: [],
        artifacts: new Map(),
        clientUsed: false,
      };
    };
    this.main = project(/** @type {number} */ (mainIndex), true);
    this.dist = project(/** @type {number} */ (distIndex), false);
    // The distractor's values are reserved first so the two projects never share a value.
    for (const t of distTemplates) {
      const reserved = rng.shuffle(t.values).slice(0, 2);
      this.dist.subjects.set(t.key, this.#subject(t, reserved));
    }
    const taken = new Set([...this.dist.subjects.values()].flatMap((s) => s.reserved));
    for (const t of [
      ...mainTemplates,
      ...(succ && mainTemplates.some((m) => m.key === succ.of) ? [succ.subject] : []),
    ]) {
      this.main.subjects.set(
        t.key,
        this.#subject(
          t,
          t.values.filter((v) => !taken.has(v)),
        ),
      );
    }
    this.successor = succ && this.main.subjects.has(succ.of) ? succ : null;
    /** @param {ProjectState} p */
    const config = (p) => ({
      subjects: Object.fromEntries(
        [...p.subjects.values()].map((s) => [
          s.t.key,
          {
            title: s.t.title,
            object_type:
              s.t.kind === 'constraint'
                ? 'constraint'
                : s.t.kind === 'instruction'
                  ? 'instruction'
                  : s.t.kind,
            keywords: s.t.keywords,
            ...(s.t.tags ? { tags: s.t.tags } : {}),
          },
        ]),
      ),
    });
    this.classifier = { [this.main.name]: config(this.main), [this.dist.name]: config(this.dist) };
    this.replay = new Replay(this.runtime, /** @type {any} */ (this.classifier));
  }

  /** @param {SubjectTemplate} t @param {string[]} reserved @returns {Subject} */
  #subject(t, reserved) {
    return {
      t,
      established: false,
      live: true,
      cur: null,
      status: 'active',
      versions: 0,
      positions: [],
      disputed: null,
      resolveAt: null,
      reserved,
    };
  }

  // ---------------------------------------------------------------- events

  /**
   * Writes one event, applies it, and returns canon's result.
   * @param {ProjectState} p @param {string} who a key of p.people
   * @param {ScenarioEvent['kind']} kind @param {string} text @param {string} beat
   * @param {Partial<ScenarioEvent>} [extra] @param {string} [subject]
   */
  async send(p, who, kind, text, beat, extra = {}, subject) {
    const actor = p.people[who];
    if (!actor) throw new Error(`no ${who} in ${p.name}`);
    /** @type {ScenarioEvent} */
    const event = {
      id: `e${String(this.events.length + 1).padStart(4, '0')}`,
      project: p.name,
      actor: actor.id,
      role: actor.role,
      speaker: actor.speaker,
      kind,
      beat,
      text,
      ...extra,
    };
    this.events.push(event);
    if (subject) this.eventSubject.set(event.id, `${p.name}/${subject}`);
    this.beats[`${p.main ? 'main' : 'distractor'}:${beat}`] =
      (this.beats[`${p.main ? 'main' : 'distractor'}:${beat}`] ?? 0) + 1;
    const result = await /** @type {Replay} */ (this.replay).apply(event);
    return { event, result };
  }

  /** @param {string} what @param {unknown} detail @returns {never} */
  fail(what, detail) {
    throw new StoryError(
      `${this.id} ${this.events.at(-1)?.id}: ${what}: ${JSON.stringify(detail)}`,
    );
  }

  /** The event had no effect on canon. @param {import('./replay.js').EventResult} r */
  none(r) {
    if (r.proposals.length > 0 || r.error) this.fail('expected no effect', r);
  }

  /**
   * The event made exactly one proposal, on `key`. @param {import('./replay.js').EventResult} r
   * @param {string} key @param {string[]} statuses allowed statuses
   */
  one(r, key, statuses) {
    const [p] = r.proposals;
    if (
      r.error ||
      r.proposals.length !== 1 ||
      !p ||
      p.object_id !== key ||
      !p.ok ||
      !statuses.includes(/** @type {string} */ (p.status))
    )
      this.fail(`expected one proposal on ${key} (${statuses.join('|')})`, r);
    return p;
  }

  /** Checks canon's object against the model. @param {ProjectState} p @param {Subject} s */
  async verify(p, s) {
    const o = (await /** @type {Replay} */ (this.replay).objects(p.name)).get(s.t.key);
    if (!o || o.version_id !== s.versions || o.text !== s.cur?.text || o.status !== s.status)
      this.fail(`canon disagrees with the story on ${s.t.key}`, {
        canon: o && { v: o.version_id, text: o.text, status: o.status },
        story: { v: s.versions, text: s.cur?.text, status: s.status },
      });
  }

  /**
   * After a person's change: if the gate held it, the confirmation it asks for. Returns who
   * authorized the change.
   * @param {ProjectState} p @param {Subject} s @param {ScenarioEvent} e
   * @param {{ status?: string, required_role?: string | null }} proposal @param {string} who
   * @param {string} value for the confirmation text
   */
  async settle(p, s, e, proposal, who, value) {
    const proposer = /** @type {Actor} */ (p.people[who]);
    if (proposal.status === 'committed') return { id: proposer.id, role: proposer.role };
    const approver =
      proposal.required_role === 'owner' ? 'owner' : this.rng.pick(['owner', 'editor']);
    const { result } = await this.send(
      p,
      approver,
      'approve',
      this.say(this.rng.pick(CONFIRMS), s, value),
      'confirm',
      { ref: e.id, object_id: s.t.key },
      s.t.key,
    );
    this.one(result, s.t.key, ['committed']);
    const a = /** @type {Actor} */ (p.people[approver]);
    return { id: a.id, role: a.role };
  }

  /** @param {string} template @param {Subject} s @param {string | null} value */
  say(template, s, value, extra = {}) {
    return fill(template, { n: s.t.noun, v: value ?? '', ...extra });
  }

  /** Neutral sentences (generic and domain). @param {number} n */
  neutral(n) {
    const bank = [...GENERIC_NEUTRAL, ...this.domain.neutral];
    const out = [];
    for (let i = 0; i < n; i++) out.push(this.rng.pick(bank));
    return [...new Set(out)];
  }

  /** @param {ProjectState} p */
  preface(p) {
    if (!this.rng.chance(0.4)) return '';
    const text = this.rng.pick(PREFACES);
    if (text.includes('{client}')) p.clientUsed = true;
    return `${fill(text, { client: p.client })} `;
  }

  /** A value for a change: unused ones first, then one the subject held before. @param {Subject} s */
  freshValue(s) {
    const used = new Set(s.positions.map((x) => x.value));
    const fresh = s.reserved.filter((v) => !used.has(v) && v !== s.cur?.value && v !== s.disputed);
    if (fresh.length > 0) return this.rng.pick(fresh);
    const old = s.reserved.filter((v) => v !== s.cur?.value && v !== s.disputed);
    return this.rng.pick(old);
  }

  // ---------------------------------------------------------------- beats

  /**
   * A person states a value (first statement, correction, reversal, override).
   * @param {ProjectState} p @param {Subject} s @param {string} value @param {string} beat
   * @param {string} [who]
   */
  async state(p, s, value, beat, who = this.rng.chance(0.65) ? 'owner' : 'editor') {
    const forms = KIND_FORMS[s.t.kind][s.established ? 'change' : 'first'];
    const form = /** @type {keyof typeof FORMS} */ (this.rng.pick(forms));
    const sentence = this.say(this.rng.pick(FORMS[form]), s, value, {
      src: this.rng.pick(this.domain.sources),
    });
    const { event, result } = await this.send(
      p,
      who,
      'message',
      this.preface(p) + sentence,
      beat,
      {},
      s.t.key,
    );
    const proposal = this.one(result, s.t.key, ['committed', 'pending']);
    const auth = await this.settle(p, s, event, proposal, who, value);
    this.commit(s, sentence, value, auth, 'active');
    s.established = true;
    await this.verify(p, s);
  }

  /** @param {Subject} s @param {string} text @param {string | null} value @param {{ id: string, role: string }} auth @param {string} status */
  commit(s, text, value, auth, status) {
    s.cur = { text, value, auth };
    s.status = status;
    s.versions++;
    s.positions.push({ text, value });
  }

  /**
   * A machine proposal the gate let through on its own (an agent creating a low-stakes object): it
   * is current, provisional, on the agent's own authority.
   * @param {ProjectState} p @param {Subject} s @param {{ status?: string }} proposal
   * @param {string} who @param {string} sentence @param {string} value
   */
  async machineCommitted(p, s, proposal, who, sentence, value) {
    if (proposal.status !== 'committed') return false;
    const a = /** @type {Actor} */ (p.people[who]);
    this.commit(s, sentence, value, { id: a.id, role: a.role }, 'provisional');
    s.established = true;
    await this.verify(p, s);
    return true;
  }

  /** A tool reports a fact: held for a person (agent proposal). @param {ProjectState} p @param {Subject} s */
  async toolFact(p, s, value = this.freshValue(s)) {
    const text = fill(this.rng.pick(TOOL_FACTS), {
      tool: s.t.tool ?? 'Report',
      k: this.k++,
      n: s.t.noun,
      v: value,
      m: this.rng.int(200, 5000),
      b: this.rng.int(1000, 9999),
    });
    const { event, result } = await this.send(
      p,
      'tool',
      'message',
      text,
      s.established ? 'tool-result' : 'tool-result:first',
      {},
      s.t.key,
    );
    const proposal = this.one(result, s.t.key, ['committed', 'pending']);
    const sentence = /** @type {string} */ (text.split('\n')[1]);
    if (await this.machineCommitted(p, s, proposal, 'tool', sentence, value)) return;
    s.positions.push({ text: sentence, value });
    p.open.push({
      ref: event.id,
      key: s.t.key,
      text: sentence,
      value,
      due: this.events.length + this.rng.int(0, 2),
      approve: s.established ? 0.75 : 1,
      ignore: 0,
      required: proposal.required_role,
    });
  }

  /** The assistant suggests a value, or phrases one as a decision. @param {ProjectState} p @param {Subject} s @param {boolean} claim */
  async suggest(p, s, claim = false) {
    const value = this.freshValue(s);
    const sentence = this.say(this.rng.pick(claim ? CLAIMS : SUGGESTIONS), s, value);
    const before = this.neutral(this.rng.int(1, 3));
    const after = this.neutral(this.rng.int(2, 6));
    const text = [...before, sentence, ...after].join(' ');
    const { event, result } = await this.send(
      p,
      'assistant',
      'message',
      text,
      claim ? 'agent-claim' : 'suggestion',
      {},
      s.t.key,
    );
    const proposal = this.one(result, s.t.key, ['committed', 'pending']);
    if (await this.machineCommitted(p, s, proposal, 'assistant', sentence, value)) return;
    s.positions.push({ text: sentence, value });
    p.open.push({
      ref: event.id,
      key: s.t.key,
      text: sentence,
      value,
      due: this.events.length + this.rng.int(1, 4),
      approve: claim ? 0.2 : 0.45,
      ignore: p.main && !claim ? 0.15 : 0,
      required: proposal.required_role,
    });
  }

  /** A person decides an open proposal (or ignores it and states their own value). @param {ProjectState} p @param {Open} o @param {boolean} final */
  async decide(p, o, final) {
    const s = /** @type {Subject} */ (p.subjects.get(o.key));
    p.open = p.open.filter((x) => x !== o);
    const roll = this.rng.next();
    if (!final && roll < o.ignore) {
      // The user never answers the suggestion and states a value of their own: it stays pending.
      await this.state(p, s, this.freshValue(s), 'override', 'owner');
      return;
    }
    const who = o.required === 'owner' ? 'owner' : this.rng.pick(['owner', 'editor']);
    if (this.rng.next() < o.approve) {
      const { result } = await this.send(
        p,
        who,
        'approve',
        this.say(this.rng.pick(CONFIRMS), s, o.value),
        'approve',
        { ref: o.ref, object_id: o.key },
        o.key,
      );
      this.one(result, o.key, ['committed']);
      const a = /** @type {Actor} */ (p.people[who]);
      this.commit(s, o.text, o.value, { id: a.id, role: a.role }, 'provisional');
      s.positions.pop(); // already recorded when proposed
      s.established = true;
      await this.verify(p, s);
    } else {
      const text = this.say(this.rng.pick(REJECTS), s, o.value);
      const { result } = await this.send(
        p,
        who,
        'reject',
        text,
        'reject',
        { ref: o.ref, object_id: o.key, reason: text },
        o.key,
      );
      this.one(result, o.key, ['rejected']);
    }
  }

  /** A person disputes the current value. @param {ProjectState} p @param {Subject} s */
  async dispute(p, s) {
    const value = /** @type {string} */ (s.cur?.value);
    const sentence = this.say(this.rng.pick(DISPUTES), s, value, {
      reason: this.rng.pick(REASONS),
    });
    const who = this.rng.chance(0.6) ? 'editor' : 'owner';
    const { event, result } = await this.send(
      p,
      who,
      'message',
      this.preface(p) + sentence,
      'dispute',
      {},
      s.t.key,
    );
    const proposal = this.one(result, s.t.key, ['committed', 'pending']);
    const auth = await this.settle(p, s, event, proposal, who, value);
    // The object keeps its statement: the dispute is a competing claim beside it (LCSM §15).
    const kept = /** @type {string} */ (s.cur?.text);
    this.commit(s, sentence, null, auth, 'disputed');
    s.cur = { text: kept, value: null, auth };
    s.disputed = value;
    s.resolveAt = this.events.length + this.rng.int(2, 6);
    await this.verify(p, s);
  }

  /** The owner settles a dispute (held by the gate: it collapses the dispute). @param {ProjectState} p @param {Subject} s */
  async resolve(p, s) {
    const value = this.rng.chance(0.5) ? /** @type {string} */ (s.disputed) : this.freshValue(s);
    const sentence = this.say(this.rng.pick(RESOLUTIONS), s, value);
    const { event, result } = await this.send(
      p,
      'owner',
      'message',
      sentence,
      'resolution',
      {},
      s.t.key,
    );
    const proposal = this.one(result, s.t.key, ['pending']);
    const auth = await this.settle(p, s, event, proposal, 'owner', value);
    this.commit(s, sentence, value, auth, 'active');
    s.disputed = null;
    s.resolveAt = null;
    await this.verify(p, s);
  }

  /** The owner restores an earlier version with a different value. @param {ProjectState} p @param {Subject} s */
  async restore(p, s) {
    const values = new Map(s.positions.map((x) => [x.text, x.value]));
    const versions = await /** @type {Replay} */ (this.replay).versions(p.name, s.t.key);
    const candidates = versions.filter((v) => {
      const value = values.get(v.content.text);
      return (
        value && value !== s.cur?.value && ['active', 'provisional'].includes(v.content.status)
      );
    });
    if (candidates.length === 0) return false;
    const target = this.rng.pick(candidates);
    const value = /** @type {string} */ (values.get(target.content.text));
    const text = this.say(this.rng.pick(RESTORES), s, value);
    const { event, result } = await this.send(
      p,
      'owner',
      'restore',
      text,
      'restore',
      { object_id: s.t.key, version: target.version_id },
      s.t.key,
    );
    const proposal = this.one(result, s.t.key, ['committed', 'pending']);
    const auth = await this.settle(p, s, event, proposal, 'owner', value);
    this.commit(s, target.content.text, value, auth, target.content.status);
    s.positions.pop(); // the restored text is an old position, already recorded
    await this.verify(p, s);
    return true;
  }

  /** A viewer states a decision; canon refuses it. @param {ProjectState} p @param {Subject} s */
  async spoof(p, s) {
    const value = this.freshValue(s);
    const sentence = this.say(this.rng.pick(SPOOFS), s, value);
    const { result } = await this.send(
      p,
      'viewer',
      'message',
      sentence,
      'viewer-claim',
      {},
      s.t.key,
    );
    const [proposal] = result.proposals;
    if (result.proposals.length !== 1 || proposal?.ok || proposal?.code !== 'FORBIDDEN')
      this.fail('expected the viewer to be refused', result);
    s.positions.push({ text: sentence, value });
  }

  /** A structured proposal from a spec: the successor subject supersedes its predecessor. @param {ProjectState} p */
  async supersede(p) {
    const succ = /** @type {NonNullable<Story['successor']>} */ (this.successor);
    const old = /** @type {Subject} */ (p.subjects.get(succ.of));
    const s = /** @type {Subject} */ (p.subjects.get(succ.subject.key));
    const value = this.freshValue(s);
    const quote = `the ${s.t.noun} is ${value}`;
    const text = `${succ.spec}: ${quote}, replacing the ${old.t.noun} for every surface.`;
    const candidateText = `The ${s.t.noun} is ${value}.`;
    const { event, result } = await this.send(
      p,
      'owner',
      'proposal',
      text,
      'supersede',
      {
        object_id: s.t.key,
        intent: 'supersede',
        supersedes: [old.t.key],
        quote,
        candidate: {
          object_type: 'decision',
          title: s.t.title,
          text: candidateText,
          confidence_state: 'sourced',
          tags: s.t.tags ?? [],
        },
      },
      s.t.key,
    );
    const proposal = this.one(result, s.t.key, ['committed', 'pending']);
    const auth = await this.settle(p, s, event, proposal, 'owner', value);
    this.commit(s, candidateText, value, auth, 'active');
    s.established = true;
    old.live = false;
    await this.verify(p, s);
    const o = (await /** @type {Replay} */ (this.replay).objects(p.name)).get(old.t.key);
    if (o?.status !== 'superseded') this.fail(`${old.t.key} should be superseded`, o?.status);
  }

  /** The coding agent builds (or rebuilds) an artifact from the current versions. @param {ProjectState} p */
  async build(p) {
    const usable = this.domain.artifacts
      .map((a) => ({
        ...a,
        deps: a.deps.filter((d) => {
          const s = p.subjects.get(d);
          return s?.established && s.live;
        }),
      }))
      .filter((a) => a.deps.length > 0 && (!p.artifacts.has(a.id) || this.isStale(p, a.id)));
    if (usable.length === 0) return false;
    const a = this.rng.pick(usable);
    const rebuild = p.artifacts.has(a.id);
    const nouns = a.deps.map((d) => /** @type {Subject} */ (p.subjects.get(d)).t.noun);
    const text = `${rebuild ? 'Regenerated' : 'Generated'} the ${a.title} from the current ${nouns.join(' and ')}.`;
    // An agent may not replace an artifact a person has reviewed: a person (the editor) re-issues it.
    const who = rebuild && p.artifacts.get(a.id)?.reviewed ? 'editor' : 'coder';
    const { result } = await this.send(
      p,
      who,
      'artifact',
      text,
      rebuild ? 'artifact-rebuild' : 'artifact',
      { artifact_id: a.id, title: a.title, depends_on: a.deps },
    );
    this.none(result);
    p.artifacts.set(a.id, {
      title: a.title,
      deps: a.deps,
      built: new Map(a.deps.map((d) => [d, /** @type {Subject} */ (p.subjects.get(d)).versions])),
      reviewed: false,
    });
    return true;
  }

  /** @param {ProjectState} p @param {string} id */
  isStale(p, id) {
    const a = p.artifacts.get(id);
    if (!a) return false;
    return a.deps.some((d) => {
      const s = /** @type {Subject} */ (p.subjects.get(d));
      return !s.live || s.versions !== a.built.get(d);
    });
  }

  /** A person reviews an artifact. @param {ProjectState} p */
  async review(p) {
    if (p.artifacts.size === 0) return false;
    const id = this.rng.pick([...p.artifacts.keys()]);
    const a = /** @type {{ title: string, reviewed: boolean }} */ (p.artifacts.get(id));
    const accepted = this.rng.chance(0.6);
    const text = accepted
      ? `Reviewed the ${a.title}: accepted.`
      : `Reviewed the ${a.title}: rejected, it needs another pass.`;
    const { result } = await this.send(
      p,
      this.rng.pick(['owner', 'editor']),
      'review',
      text,
      'review',
      { artifact_id: id, acceptance: accepted ? 'accepted' : 'rejected' },
    );
    this.none(result);
    a.reviewed = true;
    return true;
  }

  /** Chatter with no effect on canon. @param {ProjectState} p */
  async filler(p) {
    const { rng } = this;
    const established = [...p.subjects.values()].filter((s) => s.established && s.live);
    const mention = () => this.say(rng.pick(NEUTRAL_MENTIONS), rng.pick(established), null);
    const kind = rng.weighted({
      chatter: 20,
      mention: established.length > 0 ? 15 : 0,
      assistant: 45,
      tool: 10,
      agent: p.main ? 10 : 0,
    });
    let who = 'owner';
    let text = '';
    if (kind === 'chatter') {
      who = rng.pick(['owner', 'editor', 'viewer']);
      text = [rng.pick(USER_CHATTER), ...(rng.chance(0.4) ? this.neutral(1) : [])].join(' ');
    } else if (kind === 'mention') {
      who = rng.pick(['owner', 'editor']);
      text = mention();
    } else if (kind === 'assistant') {
      who = 'assistant';
      const sentences = this.neutral(rng.int(4, 12));
      if (established.length > 0 && rng.chance(0.35))
        sentences.splice(rng.int(0, sentences.length), 0, mention());
      text = sentences.join(' ');
    } else if (kind === 'tool') {
      who = 'tool';
      text = fill(rng.pick(TOOL_LOGS), {
        k: this.k++,
        m: rng.int(2, 40),
        s: rng.int(10, 59),
        x: rng.int(20, 9000),
      });
    } else {
      who = 'coder';
      text = fill(rng.pick(AGENT_STATUS), { title: rng.pick(this.domain.artifacts).title });
    }
    if (p.main === false && rng.chance(0.25)) {
      text = `For ${p.client}: ${text}`;
      p.clientUsed = true;
    }
    const { result } = await this.send(p, who, 'message', text, 'filler');
    this.none(result);
  }

  // ---------------------------------------------------------------- the plot

  /** Subjects free for a new beat: established, live, no open proposal, no dispute. @param {ProjectState} p */
  free(p) {
    return [...p.subjects.values()].filter(
      (s) =>
        s.established &&
        s.live &&
        s.status !== 'disputed' &&
        !p.open.some((o) => o.key === s.t.key),
    );
  }

  /** One beat of a project's plot. @param {ProjectState} p @param {Record<string, number>} mix */
  async beat(p, mix) {
    const { rng } = this;
    const unestablished = [...p.subjects.values()].filter(
      (s) =>
        !s.established &&
        s.live &&
        s.t.key !== this.successor?.subject.key &&
        !p.open.some((o) => o.key === s.t.key),
    );
    const free = this.free(p);
    const facts = free.filter((s) => s.t.kind === 'fact');
    const disputable = free.filter((s) => s.status === 'active' && s.cur?.value);
    const early = this.events.length < this.length * 0.35;
    const succ = this.successor;
    const canSupersede =
      p.main &&
      succ &&
      !this.main?.subjects.get(succ.subject.key)?.established &&
      free.some((s) => s.t.key === succ.of) &&
      this.events.length > this.length * 0.4;
    const choice = rng.weighted({
      establish: unestablished.length > 0 ? (early ? 8 : 3) : 0,
      correction: free.length > 0 ? 3 * (mix.correction ?? 1) : 0,
      reversal: free.some((s) => new Set(s.positions.map((x) => x.value).filter(Boolean)).size > 1)
        ? 1
        : 0,
      suggestion: free.length > 0 ? 2.5 * (mix.suggestion ?? 1) : 0,
      claim: p.main && free.length > 0 ? 0.5 : 0,
      tool: facts.length > 0 ? 1.5 : 0,
      dispute: p.main && disputable.length > 0 ? 1 * (mix.dispute ?? 1) : 0,
      restore: p.main && free.length > 0 ? 0.9 * (mix.restore ?? 1) : 0,
      spoof: p.main && free.length > 0 ? 0.35 : 0,
      build: p.main ? 1.3 * (mix.artifact ?? 1) : 0,
      review: p.main && p.artifacts.size > 0 ? 0.5 : 0,
      supersede: canSupersede ? 2 : 0,
    });
    switch (choice) {
      case 'establish': {
        const s = rng.pick(unestablished);
        if (s.t.kind === 'fact' && rng.chance(0.6)) await this.toolFact(p, s);
        else await this.state(p, s, this.freshValue(s), 'establish');
        return;
      }
      case 'correction': {
        const s = rng.pick(free);
        if (s.t.kind === 'fact' && rng.chance(0.7)) await this.toolFact(p, s);
        else await this.state(p, s, this.freshValue(s), 'correction');
        return;
      }
      case 'reversal': {
        const s = rng.pick(
          free.filter((x) => new Set(x.positions.map((y) => y.value).filter(Boolean)).size > 1),
        );
        const earlier = [...new Set(s.positions.map((x) => x.value))].filter(
          (v) => v && v !== s.cur?.value,
        );
        if (earlier.length === 0) return;
        await this.state(p, s, /** @type {string} */ (rng.pick(earlier)), 'reversal');
        return;
      }
      case 'suggestion':
        return this.suggest(p, rng.pick(free), false);
      case 'claim':
        return this.suggest(p, rng.pick(free), true);
      case 'tool':
        return this.toolFact(p, rng.pick(facts));
      case 'dispute':
        return this.dispute(p, rng.pick(disputable));
      case 'restore': {
        for (const s of rng.shuffle(free)) if (await this.restore(p, s)) return;
        return this.filler(p);
      }
      case 'spoof':
        return this.spoof(p, rng.pick(free));
      case 'build':
        if (!(await this.build(p))) await this.filler(p);
        return;
      case 'review':
        await this.review(p);
        return;
      case 'supersede':
        return this.supersede(p);
      default:
        return this.filler(p);
    }
  }

  /** Decisions and dispute settlements that are due. @param {ProjectState} p @param {boolean} final */
  async due(p, final) {
    for (const o of [...p.open]) {
      if (final || o.due <= this.events.length) {
        await this.decide(p, o, final);
        return true;
      }
    }
    for (const s of p.subjects.values()) {
      if (
        s.status === 'disputed' &&
        (final || /** @type {number} */ (s.resolveAt) <= this.events.length)
      ) {
        await this.resolve(p, s);
        return true;
      }
    }
    return false;
  }

  /** Writes the whole scenario. */
  async run() {
    const { rng } = this;
    this.setup();
    const mix = {
      correction: 0.6 + rng.next(),
      suggestion: 0.6 + rng.next(),
      dispute: 0.5 + rng.next(),
      restore: 0.5 + rng.next(),
      artifact: 0.6 + rng.next(),
    };
    const fillerShare = 0.36 + rng.next() * 0.16;
    const main = /** @type {ProjectState} */ (this.main);
    const dist = /** @type {ProjectState} */ (this.dist);
    while (this.events.length < this.length) {
      if (await this.due(main, false)) continue;
      if (await this.due(dist, false)) continue;
      const x = rng.next();
      if (x < fillerShare) await this.filler(rng.chance(0.75) ? main : dist);
      else if (x < fillerShare + (1 - fillerShare) * 0.72) await this.beat(main, mix);
      else await this.beat(dist, {});
    }
    while ((await this.due(main, true)) || (await this.due(dist, true))) {
      // settle everything still open
    }
  }

  // ---------------------------------------------------------------- expectations

  /** The expectations, from the story's model, checked against canon's store. */
  async expect() {
    const main = /** @type {ProjectState} */ (this.main);
    const dist = /** @type {ProjectState} */ (this.dist);
    const subjects = [...main.subjects.values()].filter((s) => s.established);
    const current = subjects.filter((s) => s.live && s.status !== 'disputed' && s.cur?.value);
    const accepted = current.map((s) => ({
      object_id: s.t.key,
      must_contain: /** @type {string} */ (s.cur?.value),
    }));
    const authority = current.map((s) => ({
      object_id: s.t.key,
      principal: /** @type {any} */ (s.cur).auth.id,
      role: /** @type {any} */ (s.cur).auth.role,
    }));
    const currentTexts = current.map((s) => /** @type {string} */ (s.cur?.text));
    const superseded = [
      ...new Set(
        [...main.subjects.values()].flatMap((s) =>
          s.positions
            .filter((x) => !(s.live && x.value !== null && x.value === s.cur?.value))
            .map((x) => x.text),
        ),
      ),
    ].filter((text) => !currentTexts.some((c) => c.includes(text)));
    const stale = [...main.artifacts.keys()].filter((id) => this.isStale(main, id)).sort();
    const fresh = [...main.artifacts.keys()].filter((id) => !this.isStale(main, id)).sort();
    const distValues = [...dist.subjects.values()]
      .flatMap((s) => s.positions.map((x) => x.value))
      .filter((v) => v !== null);
    const leak = [...new Set([...distValues, ...(dist.clientUsed ? [dist.client] : [])])].sort();
    const nouns = subjects.filter((s) => s.live).map((s) => s.t.noun);
    const list =
      nouns.length > 1 ? `${nouns.slice(0, -1).join(', ')} and ${nouns.at(-1)}` : nouns[0];
    const resume_question = `Picking up ${main.name} again: what are the current ${list}, and which artifacts need rework?`;

    // --- checks against canon and the texts
    const objects = await /** @type {Replay} */ (this.replay).objects(main.name);
    for (const s of current) {
      const o = objects.get(s.t.key);
      const a = /** @type {any} */ (o?.authority_basis);
      const by = a?.approver ?? a?.proposer;
      if (
        !o ||
        o.text !== s.cur?.text ||
        !o.text.includes(/** @type {string} */ (s.cur?.value)) ||
        by?.id !== s.cur?.auth.id ||
        by?.role !== s.cur?.auth.role
      )
        this.fail(`final state of ${s.t.key} disagrees`, {
          canon: o && { text: o.text, by },
          story: s.cur,
        });
    }
    for (const s of subjects.filter((x) => !x.live)) {
      if (objects.get(s.t.key)?.status !== 'superseded')
        this.fail(`${s.t.key} should be superseded`, objects.get(s.t.key)?.status);
    }
    for (const o of objects.values()) {
      if (o.status !== 'superseded' && superseded.includes(o.text))
        this.fail('a superseded text is current in canon', o.text);
    }
    const states = await /** @type {Replay} */ (this.replay).artifacts(main.name);
    for (const a of states) {
      if ((a.state !== 'current') !== stale.includes(a.manifest.artifact_id))
        this.fail(`artifact ${a.manifest.artifact_id} is ${a.state} in canon`, { stale });
    }
    const mainText = this.events
      .filter((e) => e.project === main.name)
      .map((e) => e.text)
      .join('\n');
    for (const marker of leak)
      if (mainText.includes(marker)) this.fail('a leak marker is in the main project', marker);
    // Every value appears only in events about its own subject.
    for (const p of [main, dist]) {
      for (const s of p.subjects.values()) {
        for (const v of new Set(s.positions.map((x) => x.value).filter((x) => x !== null))) {
          for (const e of this.events) {
            if (
              e.text.includes(/** @type {string} */ (v)) &&
              this.eventSubject.get(e.id) !== `${p.name}/${s.t.key}`
            )
              this.fail(`value ${v} of ${s.t.key} appears in ${e.id}`, e.text);
          }
        }
      }
    }
    return {
      accepted,
      superseded,
      authority,
      stale_artifacts: stale,
      fresh_artifacts: fresh,
      leak_markers: leak,
      resume_question,
    };
  }
}

export { DOMAINS };
