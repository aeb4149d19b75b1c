// @ts-check
/**
 * A seeded generator of relay sessions whose outputs contain KNOWN problems (issue #15, "Evaluation
 * (bench/air)"): a fabricated figure about a subject the context covers, a distortion of a context
 * fact (number, unit, negation or entity), sentences copied from an earlier window (repeated
 * 6-grams and duplicate sentences), and a scheduled section left uncovered (goal drift). The ground
 * truth — what was injected in which window, against which fact — comes from the generator itself.
 *
 * A session documents one service per window ("<Name> runbook"). Window 1 establishes every fact of
 * every service (four per service, one for each contradiction kind) and covers the first section;
 * each later window covers its section by restating that service's facts, plus its injections.
 */

/** Seeded PRNG (mulberry32): the same seed gives the same session. @param {number} seed */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NAMES = [
  'Atlas',
  'Borealis',
  'Cygnus',
  'Draco',
  'Eridanus',
  'Fornax',
  'Hydra',
  'Lyra',
  'Orion',
  'Pegasus',
  'Perseus',
  'Vela',
];
const REGIONS = ['Frankfurt', 'Dublin', 'Virginia', 'Oregon', 'Singapore', 'Tokyo'];
const STORES = ['PostgreSQL', 'MongoDB', 'Cassandra', 'Elasticsearch', 'Redis', 'ClickHouse'];

/** The contradiction kinds a distortion can be, one fact template each. */
export const DISTORTIONS = /** @type {const} */ (['number', 'unit', 'negation', 'entity']);
/** The problems a window can carry. */
export const PROBLEMS = /** @type {const} */ (['fabrication', 'distortion', 'repetition', 'drift']);

/**
 * @typedef {{ fact_id: string, statement: string }} PlanFact
 * @typedef {{ kind: 'fabrication', claim: string, fact_id: string }
 *   | { kind: 'distortion', claim: string, fact_id: string, contradiction: typeof DISTORTIONS[number], fact: string }
 *   | { kind: 'repetition', sentences: string[], from: number }
 *   | { kind: 'drift', item: string }} Injection
 * @typedef {{ name: string, item: string, facts: Record<typeof DISTORTIONS[number], PlanFact>, sentences: string[] }} Subject
 * @typedef {{ window: number, item: string, covers: boolean, sentences: string[], injected: Injection[] }} PlanWindow
 * @typedef {{ seed: number, objective: string, items: string[], facts: PlanFact[], subjects: Subject[], windows: PlanWindow[] }} SessionPlan
 */

/** @param {() => number} r @param {number} n */
const pick = (r, n) => Math.floor(r() * n);
/** @template T @param {() => number} r @param {readonly T[]} xs @returns {T} */
const one = (r, xs) => /** @type {T} */ (xs[pick(r, xs.length)]);

/** One service and its four facts. @param {() => number} r @param {string} name */
function subject(r, name) {
  const id = name.toLowerCase();
  const replicas = 3 + pick(r, 6);
  const latency = 10 * (2 + pick(r, 9));
  const region = one(r, REGIONS);
  const store = one(r, STORES);
  /** @type {Subject['facts']} */
  const facts = {
    number: {
      fact_id: `f_${id}_replicas`,
      statement: `The ${name} cluster runs ${replicas} replicas in ${region}`,
    },
    unit: {
      fact_id: `f_${id}_latency`,
      statement: `The ${name} p99 read latency is ${latency} ms`,
    },
    negation: {
      fact_id: `f_${id}_backups`,
      statement: `The ${name} service encrypts its backups at rest`,
    },
    entity: {
      fact_id: `f_${id}_index`,
      statement: `The ${name} service keeps its index in ${store}`,
    },
  };
  return {
    name,
    item: `${name} runbook`,
    facts,
    sentences: DISTORTIONS.map((k) => `${facts[k].statement}.`),
  };
}

/** A distortion of one of the subject's facts, of the given kind. @param {() => number} r @param {Subject} s @param {typeof DISTORTIONS[number]} kind */
function distortion(r, s, kind) {
  const fact = s.facts[kind];
  const claim = {
    number: () =>
      fact.statement.replace(
        /runs (\d+) replicas/,
        (_, n) => `runs ${Number(n) + 1 + pick(r, 4)} replicas`,
      ),
    unit: () => fact.statement.replace(/ ms$/, ' seconds'),
    negation: () => fact.statement.replace('encrypts its backups', 'does not encrypt its backups'),
    entity: () => {
      const store = /** @type {string} */ (fact.statement.split(' ').at(-1));
      return fact.statement.replace(
        store,
        one(
          r,
          STORES.filter((x) => x !== store),
        ),
      );
    },
  }[kind]();
  return {
    kind: /** @type {const} */ ('distortion'),
    claim: `${claim}.`,
    fact_id: fact.fact_id,
    contradiction: kind,
    fact: fact.statement,
  };
}

/** A fabricated figure about a subject the context covers: a value no fact about it gives. @param {() => number} r @param {Subject} s */
function fabrication(r, s) {
  if (r() < 0.5)
    return {
      kind: /** @type {const} */ ('fabrication'),
      claim: `The ${s.name} cluster runs replicas with ${16 * (1 + pick(r, 8))} GB of memory each.`,
      fact_id: s.facts.number.fact_id,
    };
  return {
    kind: /** @type {const} */ ('fabrication'),
    claim: `The ${s.name} service keeps its index in ${4 * (2 + pick(r, 10))} shards.`,
    fact_id: s.facts.entity.fact_id,
  };
}

/** Off-task prose a drifting window writes instead of its section: general, no figures. */
const DRIFT_TEXT = [
  '## General notes',
  'Operators should review the dashboards each morning before the stand-up.',
  'Alerts are routed to the on-call channel and acknowledged quickly.',
];

/**
 * A session of `windows` windows (at least 3): the plan, each window's sentences with its
 * injections in place, and the ground truth. Every problem kind occurs at least once in windows
 * 2…n; each of those windows carries one to three problems; drift happens once.
 * @param {number} seed @param {{ windows?: number }} [options] @returns {SessionPlan}
 */
export function generateSession(seed, options = {}) {
  const n = options.windows ?? 7;
  if (!Number.isInteger(n) || n < 3 || n > NAMES.length)
    throw new Error(`windows must be 3–${NAMES.length}`);
  const r = rng(seed);
  const names = [...NAMES].sort(() => r() - 0.5).slice(0, n);
  const subjects = names.map((name) => subject(r, name));
  // Which problems go where: each kind once in windows 2…n, then one or two more at random.
  /** @type {Set<string>[]} */
  const slots = Array.from({ length: n + 1 }, () => new Set());
  const later = Array.from({ length: n - 1 }, (_, i) => i + 2);
  for (const kind of PROBLEMS) {
    // Drift is not put in the last window: its section would be the session's last uncovered item.
    const where = kind === 'drift' ? later.slice(0, -1) : later;
    /** @type {Set<string>} */ (slots[one(r, where)]).add(kind);
  }
  for (const w of later) {
    const s = /** @type {Set<string>} */ (slots[w]);
    const extra = pick(r, 3) - (s.size === 0 ? 0 : 1);
    for (let i = 0; i < Math.max(extra, s.size === 0 ? 1 : 0); i++) {
      const kind = one(
        r,
        PROBLEMS.filter((k) => k !== 'drift'),
      );
      s.add(kind);
    }
  }
  let distortions = pick(r, DISTORTIONS.length);
  /** @type {PlanWindow[]} */
  const windows = [];
  for (let w = 1; w <= n; w++) {
    const own = /** @type {Subject} */ (subjects[w - 1]);
    const kinds = /** @type {Set<string>} */ (slots[w]);
    /** @type {Injection[]} */
    const injected = [];
    const covers = !kinds.has('drift');
    const sentences = covers ? [`## ${own.item}`, ...own.sentences] : [...DRIFT_TEXT];
    if (!covers) injected.push({ kind: 'drift', item: own.item });
    // Injections are about another service than this window's, covered or not: the context has all.
    const others = subjects.filter((s) => s !== own);
    if (kinds.has('fabrication')) {
      const f = fabrication(r, one(r, others));
      injected.push(f);
      sentences.push(f.claim);
    }
    if (kinds.has('distortion')) {
      const kind = /** @type {typeof DISTORTIONS[number]} */ (
        DISTORTIONS[distortions++ % DISTORTIONS.length]
      );
      const d = distortion(r, one(r, others), kind);
      injected.push(d);
      sentences.push(d.claim);
    }
    if (kinds.has('repetition')) {
      // Two prose sentences copied from an earlier window that covered its section.
      const earlier = windows.filter((x) => x.covers);
      const from = one(r, earlier.length > 0 ? earlier : /** @type {PlanWindow[]} */ (windows));
      // Only its own grounded sentences: a copied injection would be that problem again.
      const prose = from.covers
        ? /** @type {Subject} */ (subjects[from.window - 1]).sentences
        : from.sentences.filter((s) => !s.startsWith('#'));
      const start = pick(r, prose.length - 1);
      const copied = prose.slice(start, start + 2);
      injected.push({ kind: 'repetition', sentences: copied, from: from.window });
      sentences.push(...copied);
    }
    windows.push({ window: w, item: own.item, covers, sentences, injected });
  }
  return {
    seed,
    objective: `An operations runbook for ${names.length} services`,
    items: subjects.map((s) => s.item),
    facts: subjects.flatMap((s) => DISTORTIONS.map((k) => s.facts[k])),
    subjects,
    windows,
  };
}

/** A window's text: headings and prose paragraphs, as a model would write it. @param {readonly string[]} sentences */
export function textOf(sentences) {
  /** @type {string[]} */
  const blocks = [];
  let para = /** @type {string[]} */ ([]);
  for (const s of sentences) {
    if (s.startsWith('#')) {
      if (para.length > 0) blocks.push(para.join(' '));
      para = [];
      blocks.push(s);
    } else para.push(s);
  }
  if (para.length > 0) blocks.push(para.join(' '));
  return blocks.join('\n\n');
}

/** The contribution a window reports: every fact restated, its section completed if it covered it. @param {SessionPlan} plan @param {PlanWindow} w */
export function contributionOf(plan, w) {
  return {
    facts: plan.facts.map((f) => ({
      fact_id: f.fact_id,
      statement: f.statement,
      provenance: 'USER',
    })),
    completed: w.covers ? [w.item] : [],
  };
}
