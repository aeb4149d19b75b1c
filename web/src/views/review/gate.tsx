import type { ProposalView } from '../../api/types.js';
import { Badge, Hash } from '../../ui/badges.js';

const LABEL_TONE = {
  AUTO_COMMIT: 'good',
  REQUIRE_CONFIRMATION: 'warn',
  HARD_STOP: 'bad',
  REJECT: 'bad',
} as const;

interface SignedEvent {
  readonly protocol?: { readonly slug?: string; readonly version?: string; readonly hash?: string };
  readonly issuer?: { readonly fingerprint?: string };
  readonly artifact_hash?: string;
  readonly signature?: { readonly alg?: string; readonly value?: string };
}

/** The gate's verdict (§6) and its signed conformance event, checked by the server against its root. */
export function Gate({ view }: { view: ProposalView }) {
  const { gate } = view;
  const event = gate.event as SignedEvent | null;
  const verified = gate.verification?.ok === true;
  // A verdict whose issuer's window ended after the proposal was recorded: it held when made.
  const heldThen = !verified ? gate.verification?.valid_at : undefined;
  return (
    <section aria-labelledby="gate-h" className="gate">
      <h2 id="gate-h">Gate</h2>
      <p className="badges">
        <Badge>stakes {view.stakes}</Badge>
        <Badge tone={LABEL_TONE[gate.label]}>{gate.label}</Badge>
        {view.approval_role ? <Badge>needs {view.approval_role}</Badge> : null}
        <Badge tone={verified ? 'good' : heldThen ? 'warn' : 'bad'}>
          {verified
            ? 'signature verified'
            : heldThen
              ? `verified as recorded; its issuer has expired since (valid at ${heldThen})`
              : `not verified: ${gate.verification?.issue ?? 'unknown'}`}
        </Badge>
      </p>
      <dl className="facts">
        <dt>Protocol</dt>
        <dd>
          {event?.protocol?.slug ?? '?'} {event?.protocol?.version ?? ''}{' '}
          <Hash value={gate.protocol_hash} />
        </dd>
        <dt>Input</dt>
        <dd>
          <Hash value={gate.input_hash} />
        </dd>
        <dt>Event</dt>
        <dd>
          <Hash value={gate.event_hash} />
        </dd>
        <dt>Issuer</dt>
        <dd>
          <Hash value={event?.issuer?.fingerprint} />
        </dd>
        <dt>Signature</dt>
        <dd>
          {event?.signature
            ? `${event.signature.alg} ${event.signature.value?.slice(0, 16)}…`
            : 'none'}
        </dd>
      </dl>
      {gate.event ? (
        <details>
          <summary>The signed event</summary>
          <pre className="json">{JSON.stringify(gate.event, null, 2)}</pre>
        </details>
      ) : null}
    </section>
  );
}
