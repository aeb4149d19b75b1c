import { useMemo, useState } from 'react';
import example from '../../../../examples/refund/protocol.json';
import { useValidate, useVerifyEvent } from '../../api/queries.js';
import type { ValidateEnvelope } from '../../api/types.js';
import { Badge } from '../../ui/badges.js';
import { ErrorNote } from '../../ui/query-state.js';
import { UserText } from '../../ui/user-text.js';
import { JsonField, parseJson } from './json-field.js';
import { TrustRoot } from './trust-root.js';

const EXAMPLE_PROTOCOL = JSON.stringify(example, null, 2);
const EXAMPLE_ARTIFACT = JSON.stringify({ amount: 40 }, null, 2);
const HASH = /^sha256:[0-9a-f]{64}$/;
const ZERO_HASH = `sha256:${'0'.repeat(64)}`;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function Verdict({ envelope }: { envelope: ValidateEnvelope }) {
  const { data, error, status } = envelope;
  return (
    <div className="verdict" data-status={status} data-conformant={String(data.conformant)}>
      <p className="badges">
        <Badge>{status}</Badge>
        <Badge tone={data.conformant ? 'good' : 'bad'}>
          {data.conformant ? 'conformant' : 'not conformant'}
        </Badge>
        {data.label ? (
          <Badge tone="person">
            label <UserText text={data.label} />
          </Badge>
        ) : null}
        {error ? <Badge tone="bad">{error.failure_code}</Badge> : null}
      </p>
      {error ? (
        <p className="error">
          <UserText text={error.message} />
        </p>
      ) : null}
      {envelope.attestation ? null : (
        <p className="muted">Only a conformant verdict carries a signed event.</p>
      )}
    </div>
  );
}

/**
 * The kernel (TCP/AP §4–§7) by hand: edit an agentic protocol and an artifact, evaluate them on
 * `POST /v1/validate`, read the verdict and the signed conformance event, and check an event (this
 * one, edited, or pasted) against the root this server pins.
 */
export function KernelView() {
  const [protocol, setProtocol] = useState(EXAMPLE_PROTOCOL);
  const [artifact, setArtifact] = useState(EXAMPLE_ARTIFACT);
  const [hash, setHash] = useState(ZERO_HASH);
  const [event, setEvent] = useState('');
  const [bind, setBind] = useState(true);
  const protocolJson = useMemo(() => parseJson(protocol), [protocol]);
  const artifactJson = useMemo(() => parseJson(artifact), [artifact]);
  const eventJson = useMemo(() => parseJson(event), [event]);
  const protocolIsObject = protocolJson.ok && isObject(protocolJson.value);
  const hashOk = HASH.test(hash);
  const validate = useValidate();
  const verify = useVerifyEvent();

  const runValidate = () => {
    if (!protocolJson.ok || !artifactJson.ok || !protocolIsObject || !hashOk) return;
    verify.reset();
    validate.mutate(
      {
        artifact: artifactJson.value,
        agentic_protocol: protocolJson.value as Record<string, unknown>,
        generation_metadata_hash: hash,
      },
      {
        onSuccess: (envelope) =>
          setEvent(envelope.attestation ? JSON.stringify(envelope.attestation, null, 2) : ''),
      },
    );
  };
  const runVerify = () => {
    if (!eventJson.ok || !isObject(eventJson.value)) return;
    verify.mutate({
      event: eventJson.value,
      ...(bind && artifactJson.ok ? { artifact: artifactJson.value } : {}),
      ...(bind && protocolIsObject
        ? { protocol: protocolJson.value as Record<string, unknown> }
        : {}),
      ...(bind && hashOk ? { generation_metadata_hash: hash } : {}),
    });
  };
  const result = verify.data;

  return (
    <div className="kernel">
      <h1>Kernel</h1>
      <TrustRoot />
      <section aria-labelledby="evaluate-h">
        <h2 id="evaluate-h">Evaluate</h2>
        <form
          className="kernel-form"
          onSubmit={(e) => {
            e.preventDefault();
            runValidate();
          }}
        >
          <div className="kernel-inputs">
            <JsonField
              name="protocol"
              label="Agentic protocol (JSON)"
              hint="Constraints (JSON Schema), labels and rules; starts as the refund guard of examples/refund."
              value={protocol}
              onChange={setProtocol}
              parsed={protocolJson}
              rows={16}
            />
            <div>
              <JsonField
                name="artifact"
                label="Artifact (JSON)"
                hint="What a model produced, to be judged."
                value={artifact}
                onChange={setArtifact}
                parsed={artifactJson}
                rows={6}
              />
              <label>
                Generation metadata hash
                <input
                  name="generation_metadata_hash"
                  value={hash}
                  onChange={(e) => setHash(e.target.value.trim())}
                  aria-invalid={!hashOk}
                  spellCheck={false}
                />
              </label>
              <p className={hashOk ? 'muted hint' : 'error hint'}>
                {hashOk
                  ? 'sha256: and 64 hex digits.'
                  : 'Must be sha256: and 64 lowercase hex digits.'}
              </p>
            </div>
          </div>
          {protocolJson.ok && !protocolIsObject ? (
            <p className="error">A protocol is a JSON object.</p>
          ) : null}
          <button
            type="submit"
            className="primary"
            disabled={!protocolIsObject || !artifactJson.ok || !hashOk || validate.isPending}
          >
            {validate.isPending ? 'Validating…' : 'Validate'}
          </button>
        </form>
        <div aria-live="polite" className="kernel-result">
          {validate.error ? <ErrorNote error={validate.error} /> : null}
          {validate.data ? <Verdict envelope={validate.data} /> : null}
        </div>
      </section>
      <section aria-labelledby="verify-h">
        <h2 id="verify-h">Verify a signed event</h2>
        <form
          className="kernel-form"
          onSubmit={(e) => {
            e.preventDefault();
            runVerify();
          }}
        >
          <JsonField
            name="event"
            label="Signed conformance event (JSON)"
            hint="Filled by a conformant validation; edit it, or paste one from elsewhere."
            value={event}
            onChange={(text) => {
              setEvent(text);
              verify.reset();
            }}
            parsed={event === '' ? { ok: false, error: 'empty' } : eventJson}
            rows={14}
          />
          <label className="check">
            <input type="checkbox" checked={bind} onChange={(e) => setBind(e.target.checked)} />
            It must bind the protocol, artifact and hash above
          </label>
          <button
            type="submit"
            className="primary"
            disabled={!eventJson.ok || !isObject(eventJson.value) || verify.isPending}
          >
            Verify against the pinned root
          </button>
        </form>
        <div aria-live="polite" className="kernel-result">
          {verify.error ? <ErrorNote error={verify.error} /> : null}
          {result ? (
            <p className="badges verification" data-verified={String(result.verified)}>
              {result.verified ? (
                <>
                  <Badge tone="good">verified</Badge>
                  <span>
                    label <UserText text={result.label ?? ''} />, signed by issuer{' '}
                    <code>{result.issuer?.slice(0, 16)}…</code>
                    {result.development_root ? ' under a development root' : ''}
                  </span>
                </>
              ) : (
                <>
                  <Badge tone="bad">not verified</Badge>
                  <span>
                    {result.error?.code}: {result.error?.message}
                  </span>
                </>
              )}
            </p>
          ) : null}
        </div>
      </section>
    </div>
  );
}
