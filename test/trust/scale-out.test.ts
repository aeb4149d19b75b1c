import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type CanonryRuntime, createCanonry } from '../../src/app/index.js';
import { verifyCheckpoint, verifyProject } from '../../src/journal/index.js';
import {
  compileProtocol,
  EMPTY_METADATA_HASH,
  verifyConformanceEvent,
} from '../../src/kernel/index.js';
import { acceptNotes } from '../helpers/journal.js';
import { refundProtocol } from '../helpers/runtime.js';
import { freshPostgresSchema, postgresAvailable } from '../helpers/stores.js';
import { certify, offlineRoot, pinnedKeyring } from './ceremony.js';

const opened: CanonryRuntime[] = [];
const drops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const runtime of opened.splice(0)) await runtime.close();
  for (const drop of drops.splice(0)) await drop();
});

const ENGINES = [
  {
    name: 'sqlite',
    available: true,
    db: async (dir: string) => `sqlite:${join(dir, 'shared.db')}`,
  },
  {
    name: 'postgres',
    available: postgresAvailable,
    db: async () => {
      const { url, drop } = await freshPostgresSchema();
      drops.push(drop);
      return url;
    },
  },
];

function eventOn(runtime: CanonryRuntime, amount: number) {
  const protocol = compileProtocol(refundProtocol());
  const { event } = runtime.kernel.evaluate({ amount }, protocol, EMPTY_METADATA_HASH);
  if (!event) throw new Error('expected a conformant verdict');
  return event;
}

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(
    `two hosts, one offline root, one ${engine.name} store`,
    () => {
      it('what either host signs verifies on both; a revocation reaches both through its list', async () => {
        const { root } = await offlineRoot();
        const hostA = await pinnedKeyring(root);
        const hostB = await pinnedKeyring(root);
        await certify(hostA.ring, root);
        await certify(hostB.ring, root);
        const issuerA = hostA.ring.activeIssuer().fingerprint;
        expect(hostB.ring.activeIssuer().fingerprint).not.toBe(issuerA);
        const db = await engine.db(hostA.dataDir);
        const a = acceptNotes(
          await createCanonry({ dataDir: hostA.dataDir, db, logLevel: 'silent' }),
        );
        opened.push(a);
        const b = acceptNotes(
          await createCanonry({ dataDir: hostB.dataDir, db, logLevel: 'silent' }),
        );
        opened.push(b);

        const entry = (n: number) => ({
          kind: 'test.note',
          body: { n },
          actor: 'operator',
          authority: { system: 'test' },
        });
        await a.journal.append('shared', entry(1));
        const checkpointA = await a.journal.checkpoint('shared');
        await b.journal.append('shared', entry(2));
        const checkpointB = await b.journal.checkpoint('shared');
        expect(checkpointA.issuer.fingerprint).toBe(issuerA);
        expect(checkpointB.issuer.fingerprint).toBe(hostB.ring.activeIssuer().fingerprint);
        const events = [eventOn(a, 20), eventOn(b, 30)];

        for (const host of [a, b]) {
          const anchor = {
            root: host.keyring.rootCertificatePem,
            revocationList: host.keyring.revocationListPem(),
          };
          for (const event of events) expect(verifyConformanceEvent(event, anchor).ok).toBe(true);
          for (const checkpoint of await host.journal.checkpoints('shared')) {
            expect(verifyCheckpoint(checkpoint, anchor).ok).toBe(true);
          }
          expect(await verifyProject(host.journal, 'shared', anchor)).toMatchObject({
            ok: true,
            checkpoints: 2,
          });
        }

        // Revoke host A's issuer on the root machine; install the list on host B only.
        const { revocationListPem } = await root.revoke(issuerA);
        await hostB.ring.installRevocationList(revocationListPem);
        const onB = { root: root.certificatePem, revocationList: hostB.ring.revocationListPem() };
        const fromA = verifyConformanceEvent(events[0], onB);
        expect(fromA.ok ? 'OK' : fromA.issues[0]!.code).toBe('ISSUER_REVOKED');
        expect(verifyConformanceEvent(events[1], onB).ok).toBe(true);
        expect(verifyCheckpoint(checkpointA, onB).ok).toBe(false);
        expect(verifyCheckpoint(checkpointB, onB).ok).toBe(true);
        expect(await verifyProject(b.journal, 'shared', onB)).toMatchObject({ ok: false });
        expect(hostB.ring.canSign).toBe(true);
      });
    },
  );
}
