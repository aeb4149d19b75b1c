import { IN_FORCE_PREFIX } from '../app/index.js';
import { CanonryError, type ContentHash, parseContentHash } from '../core/index.js';
import { verifyConformanceEvent } from '../kernel/index.js';
import { instantInput } from './input.js';
import type { Operation, OperationContext } from './operation.js';
import { BODIES, EXAMPLE_HASH, RESPONSES, ref } from './schemas.js';

const { obj, str } = RESPONSES;

/** What a §6 evaluation can answer with besides its verdict, on every route that evaluates. */
export const VALIDATE_ERRORS = [
  'INVALID_REQUEST',
  'INTERPRETATION_DRIFT',
  'INVALID_BODY',
  'INVALID_HASH',
  'INVALID_PROTOCOL',
  'UNKNOWN_PROTOCOL',
] as const;

/**
 * A body naming `in-force:<slug>` names, instead, the hash of the version in force for the project
 * (a promoted or canary agentic protocol); UNKNOWN_PROTOCOL when no promotion puts one there.
 */
async function inForce(
  runtime: OperationContext['runtime'],
  project: string,
  body: unknown,
): Promise<unknown> {
  const ref = (body as { agentic_protocol?: unknown }).agentic_protocol;
  if (typeof ref !== 'string' || !ref.startsWith(IN_FORCE_PREFIX)) return body;
  const slug = ref.slice(IN_FORCE_PREFIX.length);
  const protocol = await runtime.protocolInForce(project, slug);
  if (protocol === null) {
    throw new CanonryError(
      'UNKNOWN_PROTOCOL',
      `no version of protocol ${slug} is in force for project ${project}: no promotion puts one here`,
      { slug },
    );
  }
  return { ...(body as object), agentic_protocol: protocol.hash };
}

/**
 * TCP/AP for a project's principals: evaluate an artifact (§6) and check a signed verdict offline
 * (§7) against this server's root and revocation list. `POST /v1/validate` stays the public,
 * rate-limited §6 endpoint; these need a token, so agents reach them through every face.
 */
export const VERIFY_OPERATIONS: readonly Operation[] = [
  {
    method: 'POST',
    url: '/v1/projects/:project/validate',
    operationId: 'validateArtifact',
    summary:
      'Evaluate an artifact against an agentic protocol (inline, a registered hash, or `in-force:<slug>` for the version a promotion put in force here), as TCP/AP §6: answers its envelope (CONFORMANT with the signed event, or the verdict that refused it)',
    tag: 'tcp-ap',
    cli: {
      command: 'validate',
      description:
        "evaluate an artifact against an agentic protocol (TCP/AP \u00a76) on the server's kernel",
    },
    minRole: 'viewer',
    body: {
      schema: BODIES.validateInProject,
      required: true,
      example: {
        artifact: { amount: 40 },
        agentic_protocol: EXAMPLE_HASH,
        generation_metadata_hash: EXAMPLE_HASH,
      },
    },
    status: 200,
    response: ref('ValidateEnvelope'),
    errors: VALIDATE_ERRORS,
    handler: async ({ runtime, project, body }) =>
      (await runtime.kernel.validate(await inForce(runtime, project, body))).envelope,
  },
  {
    method: 'POST',
    url: '/v1/projects/:project/verify',
    operationId: 'verifyEvent',
    summary:
      "Verify a signed conformance event against this server's root and revocation list, its issuer valid now or at `at`, and the artifact, protocol and metadata hash it should bind (TCP/AP §7); writes nothing",
    tag: 'tcp-ap',
    cli: {
      command: 'verify',
      description:
        "verify a signed conformance event against the server's root and revocation list",
    },
    minRole: 'viewer',
    body: {
      schema: BODIES.verify,
      required: true,
      example: { event: { format: 'tcp-ap.conformance-event/1' } },
    },
    status: 200,
    response: obj(
      {
        verified: { type: 'boolean' },
        label: str(),
        issuer: str({ description: 'the issuer fingerprint' }),
        development_root: { type: 'boolean' },
        error: obj({ code: str(), message: str() }, ['code', 'message']),
      },
      ['verified'],
    ),
    errors: ['INVALID_BODY', 'INVALID_HASH'],
    handler: async ({ runtime, body }) => {
      const b = body as {
        event: unknown;
        artifact?: unknown;
        protocol?: unknown;
        generation_metadata_hash?: string;
        at?: string;
      };
      const at = instantInput(b.at, 'at', 'INVALID_BODY');
      const hash: ContentHash | undefined =
        b.generation_metadata_hash === undefined
          ? undefined
          : parseContentHash(b.generation_metadata_hash, 'generation_metadata_hash');
      const keyring = runtime.keyring;
      const result = verifyConformanceEvent(b.event, {
        root: keyring.rootCertificatePem,
        revocationList: keyring.revocationListPem(),
        ...(at ? { at } : {}),
        ...(Object.hasOwn(b, 'artifact') ? { artifact: b.artifact } : {}),
        ...(b.protocol !== undefined ? { protocol: b.protocol } : {}),
        ...(hash ? { generationMetadataHash: hash } : {}),
      });
      if (!result.ok) {
        const issue = result.issues[0]!;
        return { verified: false, error: { code: issue.code, message: issue.message } };
      }
      return {
        verified: true,
        label: result.value.label,
        issuer: result.value.issuer.fingerprint,
        development_root: result.developmentRoot,
      };
    },
  },
];
