// A delivery carries at most as many sources as an event can name. A receiver parsed every source
// a body carried, and resolved their governance, before finding they were not the event's: 200,000
// copies of an event's one source took 4.6 s of the receiver's thread and were then accepted. More
// than an event names is refused before any is read. Signed with a real keyring.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assembleQualifiedEvent,
  type QualifiedEvent,
  QualifiedEventVerifier,
  receiveWebhook,
  webhookSignature,
} from '../../src/evolution/index.js';
import { Keyring } from '../../src/trust/index.js';
import { tempDir } from '../helpers/runtime.js';
import { asset, draft, userPrivate } from './assets.js';

/** The most source assets an event names (its `source_assets` set). */
const MOST = 1_024;
const { dir, cleanup } = tempDir();
let verifier: QualifiedEventVerifier;
let event: QualifiedEvent;
const source = asset('a:1', userPrivate('alice'));
const path = { name: 'lab', enforces: ['user' as const, 'project' as const] };

beforeAll(async () => {
  const keyring = await Keyring.init(dir);
  verifier = new QualifiedEventVerifier({ root: keyring.rootCertificatePem });
  const made = assembleQualifiedEvent(draft(), [source], { signer: keyring.signer() });
  if (!made.ok) throw new Error(made.issues[0]!.message);
  event = made.value;
});
afterAll(() => cleanup());

const receive = (sources: unknown[]) => {
  const body = JSON.stringify({ event, sources });
  const at = Date.now();
  return receiveWebhook(body, webhookSignature('k', body, at), {
    secret: 'k',
    verifier,
    path,
    now: at,
  });
};

describe("a delivery's sources", () => {
  it('are refused past the most an event names, before any is read', () => {
    expect(receive([source]).ok).toBe(true);
    const refused = receive(Array.from({ length: MOST + 1 }, () => source));
    expect(refused).toMatchObject({
      ok: false,
      issues: [{ code: 'SOURCE_POLICY_MISMATCH', path: 'sources' }],
    });
    // Not even read: the one past the bound is not a source at all.
    const junk = receive([...Array.from({ length: MOST }, () => source), 'not a source']);
    expect(junk).toMatchObject({ ok: false, issues: [{ code: 'SOURCE_POLICY_MISMATCH' }] });
  });
});

describe('a delivery body', () => {
  it('naming a member twice is refused, though its HMAC holds and JSON.parse reads it', () => {
    const body = JSON.stringify({ event, sources: [source] }).replace(
      '{"event":',
      '{"sources":[],"\\u0065vent":"x","event":',
    );
    expect(JSON.parse(body).event).toEqual(event);
    const at = Date.now();
    const received = receiveWebhook(body, webhookSignature('k', body, at), {
      secret: 'k',
      verifier,
      path,
      now: at,
    });
    expect(received).toMatchObject({
      ok: false,
      issues: [
        {
          code: 'INVALID_QUALIFIED_EVENT',
          message: 'the delivery body is unreadable: an object names member "event" twice',
        },
      ],
    });
  });
});
