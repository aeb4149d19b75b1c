import type { Command } from 'commander';
import { CanonryError } from '../../core/index.js';
import type { ConformanceEvent, Kernel, StepRecord } from '../../kernel/index.js';
import { verifyConformanceEvent } from '../../kernel/index.js';
import { emit } from '../io.js';
import { DATA_FLAG, DB_FLAG, withRuntime } from '../runtime.js';
import { lcsmDemo } from './demo-lcsm.js';
import { relayDemo } from './demo-relay.js';

interface DemoOptions {
  data?: string;
  db?: string;
  json?: boolean;
}

interface RefundExample {
  runRefundExample(options: {
    kernel: Kernel;
    onStep?: (message: string, step: StepRecord) => void;
  }): Promise<{
    results: { message: string; terminal: string; steps: readonly StepRecord[] }[];
    ledger: { refund_id: string; amount: number }[];
  }>;
}

/**
 * `canonry demo [lcsm|refund|relay]`: the LCSM §1 story (the default), the TCP/AP refund loop or a
 * state relay session (CRP-030), on the embedded default with no service to start.
 */
export function demoCommand(program: Command): void {
  program
    .command('demo')
    .argument(
      '[story]',
      'lcsm (the §1 seven-event story, default), refund (TCP/AP Appendix A) or relay (CRP-030)',
      'lcsm',
    )
    .description('run a demo end to end on the embedded default')
    .option(...DATA_FLAG)
    .option(...DB_FLAG)
    .option('--json', 'print the result as JSON')
    .action(async (story: string, opts: DemoOptions) => {
      if (story === 'lcsm') return lcsmDemo(opts);
      if (story === 'relay') return relayDemo(opts);
      if (story !== 'refund')
        throw new CanonryError('INVALID_ARGUMENT', 'the demo is lcsm, refund or relay');
      const example = (await import(
        new URL('../../../examples/refund/refund.js', import.meta.url).href
      )) as RefundExample;
      await withRuntime(opts, async (runtime) => {
        const json = opts.json === true;
        const { results, ledger } = await example.runRefundExample({
          kernel: runtime.kernel,
          onStep: json ? undefined : (message, s) => printStep(message, s),
        });
        const event = results.flatMap((r) => r.steps).find((s) => s.event)?.event ?? null;
        const check = event ? verifyOffline(event, runtime.keyring) : null;
        emit(json, { results, ledger, verified_event: check }, () => [
          '',
          ...results.map((r) => `${r.terminal.padEnd(14)} ${r.message}`),
          `ledger: ${ledger.map((l) => `${l.refund_id} $${l.amount}`).join(', ') || 'empty'}`,
          check ? `offline verification of ${check.label} event: ${check.result}` : '',
        ]);
      });
    });
}

let lastMessage = '';
function printStep(message: string, s: StepRecord): void {
  if (message !== lastMessage) {
    process.stdout.write(`\n> ${message}\n`);
    lastMessage = message;
  }
  const verdict = s.label ? `${s.status} ${s.label}` : s.status;
  process.stdout.write(
    `  ${s.step}. ${s.objective.padEnd(15)} ${JSON.stringify(s.artifact)} → ${verdict} → ${s.next}\n`,
  );
}

function verifyOffline(
  event: ConformanceEvent,
  keyring: { rootCertificatePem: string; revocationListPem(): string },
) {
  const result = verifyConformanceEvent(JSON.parse(JSON.stringify(event)), {
    root: keyring.rootCertificatePem,
    revocationList: keyring.revocationListPem(),
  });
  return { label: event.label, result: result.ok ? 'VERIFIED' : result.issues[0]!.code };
}
