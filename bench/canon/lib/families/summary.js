// @ts-check
/** Aggregates the families' answers per strategy into the figures the tables report. */
import { RETRIEVAL_K, SUMMARY_BUDGET } from '../strategies.js';
import { share } from './evaluate.js';

/** The baseline strategies, in table order. */
export const BASELINES = /** @type {const} */ ([
  { key: 'transcript', label: '(a) full transcript' },
  {
    key: 'summary',
    label: `(b) rolling summary (${SUMMARY_BUDGET.toLocaleString('en-US')} tokens)`,
  },
  { key: 'retrieval', label: `(c) BM25 top-${RETRIEVAL_K}` },
]);

/** Aggregates one family's answers. @param {any[]} runs */
export function summarise(runs) {
  const fam = (/** @type {string} */ f) => runs.filter((r) => r.family === f);
  const keys = [...BASELINES.map((b) => b.key), 'canonry'];
  const cascades = fam('cascade');
  /** @type {Record<string, any>} */
  const cascadeAgg = {};
  for (const k of keys) {
    const xs = cascades.map((r) => r.answers[k]);
    const should = xs.reduce((a, x) => a + x.should, 0);
    const found = xs.reduce((a, x) => a + x.found, 0);
    const flagged = xs.reduce((a, x) => a + x.flagged, 0);
    const falseFlags = xs.reduce((a, x) => a + x.falseFlags.length, 0);
    /** @type {Record<string, [number, number]>} */
    const byDepth = {};
    for (const x of xs)
      for (const [d, [f, n]] of Object.entries(x.byDepth)) {
        const acc = byDepth[d] ?? [0, 0];
        byDepth[d] = acc;
        acc[0] += f;
        acc[1] += n;
      }
    cascadeAgg[k] = {
      should,
      found,
      flagged,
      falseFlags,
      recall: share(found, should),
      precision: flagged === 0 ? null : share(flagged - falseFlags, flagged),
      byDepth,
    };
  }
  const canonCascade = cascades.map((r) => r.answers.canonry);
  cascadeAgg.canonry.receiptExact = share(
    canonCascade.filter((x) => x.receiptExact).length,
    canonCascade.length,
  );
  cascadeAgg.canonry.capsuleFalse = canonCascade.reduce((a, x) => a + x.capsuleFalse.length, 0);
  cascadeAgg.canonry.depthRight = share(
    canonCascade.reduce((a, x) => a + x.depthRight, 0),
    canonCascade.reduce((a, x) => a + x.should, 0),
  );
  cascadeAgg.canonry.capsuleWarned = share(
    canonCascade.reduce((a, x) => a + x.capsuleWarned, 0),
    canonCascade.reduce((a, x) => a + x.capsuleShould, 0),
  );

  const disputes = fam('dispute');
  /** @type {Record<string, any>} */
  const disputeAgg = {};
  for (const k of keys)
    for (const part of ['open', 'resolved']) {
      const xs = disputes.filter(
        (r) => r.id.includes(`-${part}-`) && (k !== 'canonry' || r.answers.canonry.measured),
      );
      disputeAgg[k] = disputeAgg[k] ?? {};
      disputeAgg[k][part] = xs.length
        ? share(xs.filter((r) => r.answers[k].retained).length, xs.length)
        : null;
    }
  const resolved = disputes.filter(
    (r) => r.id.includes('-resolved-') && r.answers.canonry.measured,
  );
  disputeAgg.canonry.whyInCapsule = resolved.length
    ? share(resolved.filter((r) => r.answers.canonry.whyInCapsule).length, resolved.length)
    : null;
  disputeAgg.canonry.losingShown = resolved.filter((r) => r.answers.canonry.losingShown).length;
  const hedges = fam('hedged');
  const hedgedOnes = hedges.filter((r) => !r.id.includes('-firm-'));
  /** @type {Record<string, any>} */
  const hedgedAgg = {};
  for (const k of keys)
    hedgedAgg[k] = share(
      hedgedOnes.filter(
        (r) => r.answers[k].decided === (r.truth.decided ? 'decided' : 'not decided'),
      ).length,
      hedgedOnes.length,
    );
  const fired = share(hedgedOnes.filter((r) => r.answers.canonry.fired).length, hedgedOnes.length);
  const falseFires = hedges.filter(
    (r) => r.id.includes('-firm-') && r.answers.canonry.fired,
  ).length;

  const truthOf = new Map(runs.map((r) => [r.id, r.truth]));
  const tools = fam('tool');
  const toolsMeasured = tools.filter((r) => r.answers.canonry.measured);
  const routed = toolsMeasured.length
    ? share(
        toolsMeasured.filter((r) => r.answers.canonry.routed === truthOf.get(r.id).routed).length,
        toolsMeasured.length,
      )
    : null;
  /** @type {Record<string, any>} */
  const toolValue = {};
  for (const k of keys)
    toolValue[k] = share(
      tools.filter((r) => r.answers[k].value === truthOf.get(r.id).current).length,
      tools.length,
    );

  const approvals = fam('approval');
  const acked = approvals.filter((r) => truthOf.get(r.id).acknowledged);
  /** @type {Record<string, any>} */
  const approvalValue = {};
  for (const k of keys)
    approvalValue[k] = share(
      approvals.filter((r) => r.answers[k].value === truthOf.get(r.id).current).length,
      approvals.length,
    );
  return {
    cascade: cascadeAgg,
    dispute: disputeAgg,
    hedged: { notDecided: hedgedAgg, fired, falseFires, scenarios: hedgedOnes.length },
    tool: { routed, measured: toolsMeasured.length, scenarios: tools.length, value: toolValue },
    approval: {
      stale: share(approvals.filter((r) => r.answers.canonry.stale).length, approvals.length),
      retryCommitted: approvals.filter((r) => r.answers.canonry.retryCommitted).length,
      acknowledgedCommitted: share(
        acked.filter((r) => r.answers.canonry.ack === 'committed').length,
        acked.length,
      ),
      scenarios: approvals.length,
      value: approvalValue,
    },
  };
}
