import { CanonryError, contentHash, isCanonryError, type JsonValue } from '../core/index.js';
import {
  firstDifference,
  KERNEL_VERDICT_CLASS,
  kernelVerdictOutcome,
  type QualifiedEvent,
  type Replayer,
  type ReplayResult,
} from '../evolution/index.js';
import {
  type CompiledProtocol,
  decide,
  type ProtocolRegistry,
  signConformanceEvent,
} from '../kernel/index.js';
import type { Signer } from '../trust/index.js';

/** Where a kernel replay finds what the event only names by hash. */
export interface KernelReplayInputs {
  readonly registry: ProtocolRegistry;
  /** The issuer a conformant verdict is signed with again (the runtime's keyring signer). */
  readonly signer: () => Signer;
  /** The recorded artifact the event names by hash; undefined when it is not at hand. */
  readonly artifact: (hash: string) => Promise<unknown> | unknown;
}

/**
 * Replays `kernel.verdict` events: the kernel resolves the recorded artifact against the protocol
 * the event names (by hash, from the registry) and, for a conformant verdict, signs the
 * conformance event again. A verdict is a function of (artifact, protocol) and the event carries
 * no clock, so the label and the event's bytes must come out the same. The signed bytes include the
 * issuer: when the runtime's issuer is not the one recorded (a rotation since), they are not
 * compared and `compared` says so. Nothing is audited: a replay is not a verdict.
 */
export function kernelVerdictReplayer(inputs: KernelReplayInputs): Replayer {
  return {
    executionClass: KERNEL_VERDICT_CLASS,
    async replay(event: QualifiedEvent) {
      const recorded = kernelVerdictOutcome(event);
      const artifact = await inputs.artifact(recorded.artifact_hash);
      if (artifact === undefined) {
        throw new CanonryError(
          'REPLAY_INPUT_MISSING',
          `the artifact ${recorded.artifact_hash} the event names is not at hand`,
          { input: 'artifact', hash: recorded.artifact_hash },
        );
      }
      let compiled: CompiledProtocol;
      try {
        compiled = await inputs.registry.get(recorded.protocol_hash);
      } catch (err) {
        if (!isCanonryError(err, 'UNKNOWN_PROTOCOL')) throw err;
        throw new CanonryError(
          'REPLAY_INPUT_MISSING',
          `the protocol ${recorded.protocol_hash} is not registered here`,
          { input: 'protocol', hash: recorded.protocol_hash },
        );
      }
      const { verdict, protocol } = decide(artifact, compiled, recorded.generation_metadata_hash);
      const signer = inputs.signer();
      const sameIssuer = recorded.issuer === null || recorded.issuer === signer.fingerprint;
      let eventHash: string | null = null;
      if (verdict.class === 'CONFORMANT') {
        const signed = signConformanceEvent(
          verdict,
          protocol,
          recorded.generation_metadata_hash,
          signer,
        );
        eventHash = contentHash(signed);
      }
      // The order here is the order of comparison: inputs first, then the verdict, then the bytes.
      const compared = [
        'artifact_hash',
        'protocol_hash',
        'generation_metadata_hash',
        'class',
        'label',
      ];
      const expected: Record<string, JsonValue> = {
        artifact_hash: recorded.artifact_hash,
        protocol_hash: recorded.protocol_hash,
        generation_metadata_hash: recorded.generation_metadata_hash,
        class: recorded.class,
        label: recorded.label,
      };
      const actual: Record<string, JsonValue> = {
        artifact_hash: verdict.artifactHash,
        protocol_hash: verdict.protocolHash,
        generation_metadata_hash: recorded.generation_metadata_hash,
        class: verdict.class,
        label: verdict.label,
      };
      if (sameIssuer && recorded.event_hash !== undefined) {
        compared.push('event_hash');
        expected.event_hash = recorded.event_hash;
        actual.event_hash = eventHash;
      } else {
        // Signed by another issuer than today's, or recorded without the signed event's hash:
        // only whether an event was signed can compare.
        compared.push('event');
        expected.event =
          recorded.event_hash === undefined
            ? recorded.issuer !== null
            : recorded.event_hash !== null;
        actual.event = eventHash !== null;
      }
      return report(compared, firstDifference(expected, actual));
    },
  };
}

function report(
  compared: readonly string[],
  difference: ReturnType<typeof firstDifference>,
): ReplayResult {
  return difference === null
    ? { status: 'match', compared }
    : { status: 'differ', compared, difference };
}
