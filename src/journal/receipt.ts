import { contentHash } from '../core/index.js';
import type { JournalEntry, Receipt } from './types.js';

/**
 * The LCSM §7 receipt of an entry. It is a function of the entry alone — the caller's checks and
 * warnings travel inside the entry — so `rebuild` reproduces every receipt byte for byte.
 */
export function receiptFor(entry: JournalEntry): Receipt {
  const input = entry.receipt ?? {};
  const unhashed: Omit<Receipt, 'receipt_hash'> = {
    receipt_id: `rcpt:${entry.project}:${entry.seq}`,
    request_ref: entry.idempotency_key ?? entry.correlation_id ?? `seq:${entry.seq}`,
    prior_state_ref: { seq: entry.seq - 1, hash: entry.prev_hash },
    result_state_ref: { seq: entry.seq, hash: entry.hash },
    checks: [
      { name: 'hash-chain', result: 'pass', detail: `linked to seq ${entry.seq - 1}` },
      ...(input.checks ?? []),
    ],
    warnings: input.warnings ?? [],
    uncertainty: input.uncertainty ?? null,
    affected_dependents: input.affected_dependents ?? [],
    rollback_route:
      input.rollback_route ??
      `append a compensating entry that restores the state before seq ${entry.seq}; history is never rewritten`,
    acceptance_state: input.acceptance_state ?? 'accepted',
    hash_chain_parent: entry.prev_hash,
  };
  return { ...unhashed, receipt_hash: contentHash(unhashed) };
}
