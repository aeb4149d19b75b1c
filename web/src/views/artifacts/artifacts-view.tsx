import { useArtifactPages } from '../../api/queries.js';
import type { ArtifactStatus } from '../../api/types.js';
import { Badge, Hash } from '../../ui/badges.js';
import { ErrorNote, MorePages } from '../../ui/query-state.js';
import { artifactTone } from '../../ui/states.js';
import { UserText } from '../../ui/user-text.js';
import { ArtifactInputs } from './artifact-inputs.js';

/** Worst first: what needs a person, then what must be rebuilt, then the doubtful, then the fine. */
const ORDER: readonly ArtifactStatus['state'][] = [
  'requires_human_review',
  'requires_regeneration',
  'definitely_stale',
  'possibly_stale',
  'current',
  'unaffected',
];

const words = (s: string) => s.replace(/_/g, ' ');

function Artifact({ a }: { a: ArtifactStatus }) {
  const m = a.manifest;
  const fine = a.state === 'current' || a.state === 'unaffected';
  return (
    <article
      id={`artifact-${m.artifact_id}`}
      className={`note artifact${fine ? '' : ' note-flagged'}`}
      data-artifact-id={m.artifact_id}
      data-state={a.state}
      aria-labelledby={`artifact-h-${m.artifact_id}`}
    >
      <h3 id={`artifact-h-${m.artifact_id}`}>
        <UserText text={m.title || m.artifact_id} /> <code className="muted">{m.artifact_id}</code>
      </h3>
      <p className="badges">
        <Badge tone={artifactTone(a.state)}>{words(a.state)}</Badge>
        <Badge>acceptance {m.acceptance_state}</Badge>
        <Badge>v{m.artifact_version}</Badge>
        <span className="muted">
          output <Hash value={m.output_digest} />
        </span>
        {(m.tool_or_model_refs ?? []).length > 0 ? (
          <span className="muted">
            made by <UserText text={(m.tool_or_model_refs ?? []).join(', ')} />
          </span>
        ) : null}
      </p>
      <p className={fine ? 'muted' : 'why'}>
        {a.reasons.length === 0
          ? 'Every note it was built on is still current.'
          : `Why: ${a.reasons.join('; ')}`}
      </p>
      <ArtifactInputs manifest={m} />
    </article>
  );
}

/** Artifacts per page: the next page is read on request, never the project's every artifact. */
const PAGE = 50;

/**
 * The artifacts the principal may read (LCSM §10), a page at a time in id order, with their
 * staleness and why: the note versions each was built on, where each note stands now and what
 * changed since. The pages read so far are shown worst first.
 */
export function ArtifactsView() {
  const pages = useArtifactPages(PAGE);
  const all = pages.data?.pages.flatMap((p) => p.artifacts) ?? [];
  const sorted = [...all].sort((x, y) => ORDER.indexOf(x.state) - ORDER.indexOf(y.state));
  const stale = all.filter((a) => a.state !== 'current' && a.state !== 'unaffected');
  const more = pages.hasNextPage ? '+' : '';
  return (
    <>
      <h1>Artifacts</h1>
      {pages.data === undefined && pages.error ? <ErrorNote error={pages.error} /> : null}
      {pages.data === undefined && !pages.error ? (
        <p className="muted" aria-busy="true">
          Loading…
        </p>
      ) : null}
      {pages.data !== undefined ? (
        <>
          <p className="badges">
            <span data-artifact-count>
              {all.length}
              {more} artifacts
            </span>
            <Badge tone={stale.length === 0 ? 'good' : 'bad'}>
              {stale.length === 0
                ? `none stale${more ? ' among these' : ''}`
                : `${stale.length}${more} stale or to review`}
            </Badge>
          </p>
          {all.length === 0 ? <p className="muted">No artifact is registered.</p> : null}
          <div className="artifacts">
            {sorted.map((a) => (
              <Artifact key={a.manifest.artifact_id} a={a} />
            ))}
          </div>
        </>
      ) : null}
      <MorePages pages={pages} page={PAGE} />
    </>
  );
}
