// @ts-check
/**
 * Runs only `kernel.evaluate` over the 1,024 refund inputs for a while, to be profiled:
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof bench/tools/evaluate-loop.js [seconds] [--audit]
 *   node bench/tools/profile-top.js /tmp/prof
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileProtocol, Kernel, MemoryAuditSink } from 'canonry/kernel';
import { Keyring } from 'canonry/trust';
import { fmtInt } from '../lib/measure.js';
import { INPUT_MASK as M, metadataHashes, refundArtifacts, refundProtocol } from '../lib/refund.js';

const seconds = Number(process.argv[2] ?? 8);
const dir = mkdtempSync(join(tmpdir(), 'canonry-bench-loop-'));
try {
  const signer = (await Keyring.init(dir)).signer();
  const audit = process.argv.includes('--audit') ? new MemoryAuditSink() : undefined;
  const kernel = new Kernel({ signer, ...(audit ? { audit } : {}) });
  const compiled = compileProtocol(refundProtocol());
  const artifacts = refundArtifacts();
  const metas = /** @type {any[]} */ (metadataHashes());
  const start = performance.now();
  let n = 0;
  while (performance.now() - start < seconds * 1000) {
    for (let k = 0; k < 256; k++, n++) kernel.evaluate(artifacts[n & M], compiled, metas[n & M]);
  }
  process.stderr.write(`evaluate-loop: ${fmtInt(n / seconds)} evaluations/s\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
