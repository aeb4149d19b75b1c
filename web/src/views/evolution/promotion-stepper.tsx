import { PROMOTION_PATH, type PromotionView } from '../../api/evolution.js';

const LABEL: Readonly<Record<string, string>> = {
  candidate: 'Candidate',
  validated: 'Replay validation',
  checked: 'Policy and safety checks',
  published: 'Signed publication',
  canary: 'Canary',
};

type StepState = 'done' | 'current' | 'failed' | 'todo';

const WORD: Readonly<Record<StepState, string>> = {
  done: 'passed',
  current: 'current',
  failed: 'failed',
  todo: 'not reached',
};

/** Which path stage a rejection stopped at: its validation or its policy checks. */
const REJECTED_AT: Readonly<Record<string, string>> = {
  validation: 'validated',
  policy: 'checked',
};

/**
 * A promotion's stages as a stepper: candidate → replay validation → checks → signed publication →
 * canary → promoted or rolled back, each passed, current, failed or not reached, in words as well
 * as in marks; the current step is `aria-current="step"`.
 */
export function PromotionStepper({ promotion: p }: { promotion: PromotionView }) {
  const reached = new Set(p.reached);
  const failedAt = p.stage === 'rejected' ? (REJECTED_AT[p.rejectedAt ?? ''] ?? null) : null;
  const ended = p.stage === 'promoted' || p.stage === 'rolled_back';
  const steps: { key: string; label: string; state: StepState }[] = PROMOTION_PATH.map((s) => ({
    key: s,
    label: LABEL[s] ?? s,
    state:
      s === failedAt
        ? 'failed'
        : s === p.stage
          ? 'current'
          : reached.has(s) || ended
            ? 'done'
            : 'todo',
  }));
  steps.push({
    key: 'end',
    label:
      p.stage === 'rolled_back'
        ? 'Rolled back'
        : p.stage === 'promoted'
          ? 'Promoted'
          : 'Promoted or rolled back',
    state: p.stage === 'rolled_back' ? 'failed' : p.stage === 'promoted' ? 'current' : 'todo',
  });
  return (
    <ol className="stepper" aria-label={`Stages of ${p.id}`}>
      {steps.map((s) => (
        <li
          key={s.key}
          className="stepper-step"
          data-state={s.state}
          aria-current={s.state === 'current' || (s.key === 'end' && ended) ? 'step' : undefined}
        >
          <span className="stepper-mark" aria-hidden="true">
            {s.state === 'done'
              ? '✓'
              : s.state === 'failed'
                ? '✕'
                : s.state === 'current'
                  ? '●'
                  : '○'}
          </span>
          <span>
            {s.label}{' '}
            <span className="muted">({s.key === 'end' && ended ? 'final' : WORD[s.state]})</span>
          </span>
        </li>
      ))}
    </ol>
  );
}
