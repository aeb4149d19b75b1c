import type { Command } from 'commander';
import type { ConformanceEvent, Kernel, StepRecord } from '../../kernel/index.js';
import { verifyConformanceEvent } from '../../kernel/index.js';
import { emit } from '../io.js';
import { DATA_FLAG, DB_FLAG, withRuntime } from '../runtime.js';

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
 * `canonry demo`: the TCP/AP refund loop (examples/refund) on the embedded default: four customer
 * messages, each judged by the kernel before any refund moves, one event verified offline.
 */
export function demoCommand(program: Command): void {
  program
    .command('demo')
    .description('run the governed refund loop (TCP/AP Appendix A) on the embedded default')
    .option(...DATA_FLAG)
    .option(...DB_FLAG)
    .option('--json', 'print the runs as JSON')
    .action(async (opts: DemoOptions) => {
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
