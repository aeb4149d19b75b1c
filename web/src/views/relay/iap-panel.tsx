import type { RelayWindowQuality } from '../../api/types.js';
import { Badge } from '../../ui/badges.js';

/**
 * What AIR made of one window (CRP-018 §2.3): the Intelligence Augmentation Packet and the text
 * the next window's prompt carries with it, or why nothing is carried.
 */
export function IapPanel({ row }: { row: RelayWindowQuality }) {
  const air = row.air;
  if (!air) return <p className="muted">This window was recorded without AIR.</p>;
  return (
    <div className="iap" data-window={row.window_number}>
      <p className="badges">
        <Badge>AIR {air.mode}</Badge>
        <Badge>judge {air.judge}</Badge>
        <Badge tone={air.injection ? 'warn' : 'neutral'}>
          {air.injection ? `${air.tokens} tokens injected` : 'nothing injected'}
        </Badge>
      </p>
      {air.injection ? (
        <>
          <h4>Carried into window {row.window_number + 1}'s prompt</h4>
          <pre className="json iap-text">{air.injection}</pre>
        </>
      ) : (
        <p className="muted">
          {air.packet
            ? 'The packet was built and recorded but not injected (passive or off, or nothing in it fits the budget).'
            : 'No packet: AIR is off, or this window closed its feedback loop (CRP-018 §3.3).'}
        </p>
      )}
      {air.packet ? (
        <details>
          <summary>The packet (IAP)</summary>
          <pre className="json">{JSON.stringify(air.packet, null, 2)}</pre>
        </details>
      ) : null}
    </div>
  );
}
