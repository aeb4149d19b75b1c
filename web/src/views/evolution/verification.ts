import type { EventsReport } from '../../api/evolution.js';

/** What one run of `verifyEvents` said, per event: every event up to `upTo` was checked. */
export interface Verification {
  readonly report: EventsReport;
  /** The newest event's seq when the run began: the store appends only, so all up to it were checked. */
  readonly upTo: number;
  /** Each failed event's first issue, by event id. */
  readonly failed: ReadonlyMap<string, { readonly code: string; readonly message: string }>;
}

/** One event's result in a verification: verified, failed with its issue, or not checked by it. */
export type EventVerdict =
  | { readonly state: 'verified' }
  | { readonly state: 'failed'; readonly code: string; readonly message: string }
  | { readonly state: 'unchecked' };

export function verification(report: EventsReport, upTo: number): Verification {
  const failed = new Map<string, { code: string; message: string }>();
  for (const f of report.failed) {
    const issue = (f as { issue?: { code?: unknown; message?: unknown } }).issue;
    const id = (f as { event_id?: unknown }).event_id;
    if (typeof id !== 'string') continue;
    failed.set(id, {
      code: typeof issue?.code === 'string' ? issue.code : 'FAILED',
      message: typeof issue?.message === 'string' ? issue.message : '',
    });
  }
  return { report, upTo, failed };
}

export function verdictOf(v: Verification | null, eventId: string, seq: number): EventVerdict {
  if (!v) return { state: 'unchecked' };
  const issue = v.failed.get(eventId);
  if (issue) return { state: 'failed', ...issue };
  return seq <= v.upTo ? { state: 'verified' } : { state: 'unchecked' };
}
