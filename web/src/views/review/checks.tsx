import type { CheckResult, ComparisonChecks } from '../../api/types.js';
import { Badge } from '../../ui/badges.js';

/** The eight questions of the two-note comparison (LCSM §5), and which answer needs a look. */
const CHECKS: readonly {
  readonly key: keyof ComparisonChecks;
  readonly question: string;
  /** The result that is fine; the other is flagged. */
  readonly fine: boolean;
}[] = [
  { key: 'information_removed', question: 'Is information removed?', fine: false },
  {
    key: 'source_or_authority_change',
    question: 'Does the source or authority change?',
    fine: false,
  },
  {
    key: 'certainty_raised_without_evidence',
    question: 'Is certainty raised without evidence?',
    fine: false,
  },
  {
    key: 'suggestion_to_directive',
    question: 'Does a suggestion become a directive?',
    fine: false,
  },
  { key: 'dispute_collapsed', question: 'Is a dispute collapsed?', fine: false },
  { key: 'dependents_made_stale', question: 'Does it make dependents stale?', fine: false },
  { key: 'reversible', question: 'Is it reversible?', fine: true },
  { key: 'within_authority', question: "Is it within the actor's authority?", fine: true },
];

function Row({ question, check, fine }: { question: string; check: CheckResult; fine: boolean }) {
  const flagged = check.result !== fine;
  return (
    <tr data-flagged={flagged}>
      <th scope="row">{question}</th>
      <td>
        <Badge tone={flagged ? 'warn' : 'good'}>{check.result ? 'yes' : 'no'}</Badge>
      </td>
      <td>
        {check.detail}
        {check.items && check.items.length > 0 ? (
          <ul className="items">
            {check.items.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        ) : null}
      </td>
    </tr>
  );
}

/** Every check's result, flagged where the answer needs a person's look. */
export function Checks({ checks }: { checks: ComparisonChecks }) {
  return (
    <section aria-labelledby="checks-h">
      <h2 id="checks-h">Checks</h2>
      <div className="table-wrap">
        <table className="checks">
          <thead>
            <tr>
              <th scope="col">Question</th>
              <th scope="col">Answer</th>
              <th scope="col">Why</th>
            </tr>
          </thead>
          <tbody>
            {CHECKS.map(({ key, question, fine }) => {
              const check = checks[key];
              return check ? <Row key={key} question={question} check={check} fine={fine} /> : null;
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
