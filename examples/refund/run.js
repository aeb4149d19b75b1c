// @ts-check
/** Standalone: `node examples/refund/run.js` runs the refund loop with a throwaway keyring. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCanonry } from 'canonry/app';
import { runRefundExample } from './refund.js';

const dataDir = mkdtempSync(join(tmpdir(), 'canonry-refund-'));
const canonry = await createCanonry({ dataDir, logLevel: 'silent' });
try {
  const { results, ledger } = await runRefundExample({
    kernel: canonry.kernel,
    onStep: (_message, s) =>
      console.log(`  ${s.objective} → ${s.status}${s.label ? ` ${s.label}` : ''} → ${s.next}`),
  });
  for (const r of results) console.log(`${r.terminal.padEnd(13)} ${r.message}`);
  console.log(`ledger: ${JSON.stringify(ledger)}`);
} finally {
  await canonry.close();
  rmSync(dataDir, { recursive: true, force: true });
}
