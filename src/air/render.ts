import { scaffoldBlock } from './assemble.js';
import { clause } from './text.js';
import type { AirPacket } from './types.js';

const TYPE_LINE = '  - ';
const list = (items: readonly string[]) => items.map((i) => `  - ${i}`).join('\n');

/**
 * The text AIR injects into the next window's prompt: a heading, then each present component in
 * priority order. An empty packet is the empty string (nothing to inject, zero tokens).
 */
export function renderPacket(packet: AirPacket): string {
  const { iap } = packet;
  const sections: string[] = [];
  if (iap.error_quarantine.length > 0) {
    sections.push(
      `ERROR QUARANTINE (these claims contradict the context or have no support; never repeat them):\n${list(iap.error_quarantine.map((q) => q.prohibition))}`,
    );
  }
  if (iap.goal_residual !== null) sections.push(iap.goal_residual.re_anchor_injection);
  if (packet.targeted_retrieval !== null) sections.push(packet.targeted_retrieval.injection);
  if (iap.reasoning_scaffolds.length > 0) {
    // One §4.1 block lists every type, as §4.1's example does, instead of repeating the steps.
    const lines = iap.reasoning_scaffolds.map(
      (s) =>
        s.scaffold_prompt.split('\n').find((l) => l.startsWith(TYPE_LINE)) ??
        `${TYPE_LINE}${s.claim_type}`,
    );
    const block = scaffoldBlock([], iap.window_source + 1).split('\n');
    sections.push([...block.slice(0, 2), ...lines, ...block.slice(3)].join('\n'));
  }
  if (iap.epistemic_map !== null) sections.push(iap.epistemic_map.map_injection);
  if (packet.flow_bridge !== null) sections.push(packet.flow_bridge.injection);
  const v = iap.vocabulary_directives;
  if (v !== null) {
    const parts: string[] = [];
    if (v.forbidden_phrases.length > 0) {
      parts.push(
        `VOCABULARY: do not reuse these phrases: ${v.forbidden_phrases.map((p) => `"${p}"`).join('; ')}.`,
      );
    }
    if (v.fresh_anchors.length > 0) {
      parts.push(
        `Take fresh material from these facts not used yet:\n${list(v.fresh_anchors.map((a) => clause(a)))}`,
      );
    }
    sections.push(parts.join('\n'));
  }
  if (iap.concept_freshness.length > 0) {
    sections.push(
      `EXHAUSTED CONCEPTS (find a new angle on each):\n${list(
        iap.concept_freshness.map((c) => {
          const draw =
            c.preferred_communities.length > 0
              ? `; draw on ${c.preferred_communities.join(', ')}`
              : '';
          const avoid =
            c.exhausted_phrasings.length > 0
              ? `; avoid ${c.exhausted_phrasings.map((p) => `"${p}"`).join(', ')}`
              : '';
          return `${c.concept_label} (freshness ${c.freshness_score.toFixed(2)})${draw}${avoid}`;
        }),
      )}`,
    );
  }
  if (sections.length === 0) return '';
  return [
    `AIR QUALITY PACKET (from window ${iap.window_source}; apply it to this window)`,
    ...sections,
  ].join('\n\n');
}
