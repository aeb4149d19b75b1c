import { describe, expect, it } from 'vitest';
import { CSO_SCHEMA, parseCso } from '../../src/relay/cso-schema.js';
import { CSO_LIMITS } from '../../src/relay/limits.js';
import type { CognitiveStateObject } from '../../src/relay/types.js';
import { decision, etcd, fact, GENESIS, seal, unsealed } from './cso-fixtures.js';

/** The path parseCso names for `value`, or null when it accepts it. */
function refusal(value: unknown): string | null {
  try {
    parseCso(value);
    return null;
  } catch (err) {
    expect(err).toMatchObject({ code: 'INVALID_ARGUMENT' });
    return (err as { details: { path: string } }).details.path;
  }
}

const sealedLike = (over: Partial<CognitiveStateObject>) => ({ ...etcd(), ...over });

describe('parseCso (§2.1 as JSON Schema, then references)', () => {
  it('accepts a sealed CSO and names its schema version', () => {
    expect(parseCso(JSON.parse(JSON.stringify(etcd())))).toEqual(etcd());
    expect(CSO_SCHEMA.$id).toBe('https://canonry.dev/schemas/relay/cso.v1.json');
  });

  it('names the path of the first schema problem', () => {
    const cso = etcd();
    expect(refusal(null)).toBe('');
    expect(refusal({ ...cso, extra: 1 })).toBe('/extra');
    const { goal_state: _, ...noGoal } = cso;
    expect(refusal(noGoal)).toBe('/goal_state');
    expect(refusal(sealedLike({ window_number: 0 }))).toBe('/window_number');
    expect(
      refusal(
        sealedLike({ established_facts: [{ ...cso.established_facts[0]!, confidence: 1.5 }] }),
      ),
    ).toBe('/established_facts/0/confidence');
    expect(
      refusal(
        sealedLike({
          established_facts: [{ ...cso.established_facts[0]!, provenance: 'RUMOUR' as never }],
        }),
      ),
    ).toBe('/established_facts/0/provenance');
    expect(
      refusal(
        sealedLike({
          decisions: [{ ...cso.decisions[0]!, decision_id: 'has space' }, cso.decisions[1]!],
        }),
      ),
    ).toBe('/decisions/0/decision_id');
    expect(refusal(sealedLike({ cso_hmac: 'hmac-sha256:k:abc' }))).toBe('/cso_hmac');
    expect(refusal(sealedLike({ goal_state: { ...cso.goal_state, mode: 'CHAT' as never } }))).toBe(
      '/goal_state/mode',
    );
  });

  it('bounds sizes: a statement over 4 KiB, too many facts', () => {
    const cso = etcd();
    const long = 'x'.repeat(CSO_LIMITS.statementChars + 1);
    expect(
      refusal(
        sealedLike({ established_facts: [{ ...cso.established_facts[0]!, statement: long }] }),
      ),
    ).toBe('/established_facts/0/statement');
    const many = Array.from({ length: CSO_LIMITS.facts + 1 }, (_, i) => fact(`f${i}`, `s${i}`));
    expect(refusal(sealedLike({ established_facts: many }))).toBe('/established_facts');
  });

  it('refuses duplicate ids, a later window_origin, unknown and unlisted edges', () => {
    const cso = etcd();
    const a = cso.established_facts[0]!;
    expect(refusal(sealedLike({ established_facts: [a, a] }))).toBe('/established_facts/1/fact_id');
    expect(
      refusal(
        sealedLike({ decisions: [cso.decisions[0]!, { ...cso.decisions[1]!, decision_id: 'A' }] }),
      ),
    ).toBe('/decisions/1/decision_id');
    expect(refusal(sealedLike({ established_facts: [{ ...a, window_origin: 2 }] }))).toBe(
      '/established_facts/0/window_origin',
    );
    expect(
      refusal(
        sealedLike({
          dependency_graph: [...cso.dependency_graph, { dependent: 'C', depends_on: 'ghost' }],
        }),
      ),
    ).toBe('/dependency_graph/2/depends_on');
    expect(refusal(sealedLike({ dependency_graph: cso.dependency_graph.slice(1) }))).toBe(
      '/dependency_graph',
    );
    expect(
      refusal(
        sealedLike({ dependency_graph: [...cso.dependency_graph, cso.dependency_graph[0]!] }),
      ),
    ).toBe('/dependency_graph/2');
    expect(
      refusal(
        sealedLike({
          dependency_graph: [...cso.dependency_graph, { dependent: 'A', depends_on: 'C' }],
        }),
      ),
    ).toBe('/dependency_graph');
  });

  it('knows scratch ids from TOOL provenance, DERIVED refs as facts, and flagged decisions', () => {
    const ok = unsealed(1, GENESIS, {
      facts: [
        fact('T', 'cpu 87%', { provenance: 'TOOL', provenance_ref: 'scratch_1' }),
        fact('D', 'over threshold', { provenance: 'DERIVED', provenance_ref: 'T' }),
      ],
      decisions: [
        decision('S', 'scale', ['D', 'scratch_1']),
        decision('R', 'was resting on a retired fact', ['gone'], { needs_revision: true }),
      ],
    });
    expect(refusal({ ...ok, cso_hmac: seal(new Uint8Array()) })).toBeNull();
    const derivedFromNothing = unsealed(1, GENESIS, {
      facts: [fact('D', 'x', { provenance: 'DERIVED', provenance_ref: 'nothing' })],
    });
    expect(refusal({ ...derivedFromNothing, cso_hmac: seal(new Uint8Array()) })).toBe(
      '/established_facts/0/provenance_ref',
    );
    const unflagged = unsealed(1, GENESIS, { decisions: [decision('R', 'r', ['gone'])] });
    expect(refusal({ ...unflagged, cso_hmac: seal(new Uint8Array()) })).toMatch(
      /^\/dependency_graph\/0/,
    );
  });
});
