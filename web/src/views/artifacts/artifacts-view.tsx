import { useArtifacts } from '../../api/queries.js';
import type { ArtifactStatus } from '../../api/types.js';
import { Badge, Hash } from '../../ui/badges.js';
import { Limited } from '../../ui/limited.js';
import { QueryState } from '../../ui/query-state.js';
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

/**
 * Every artifact the principal may read (LCSM §10) with its staleness and why: the note versions
 * it was built on, where each note stands now and what changed since.
 */
export function ArtifactsView() {
  const artifacts = useArtifacts();
  return (
    <>
      <h1>Artifacts</h1>
      <QueryState query={artifacts}>
        {({ artifacts: all }) => {
          const sorted = [...all].sort((x, y) => ORDER.indexOf(x.state) - ORDER.indexOf(y.state));
          const stale = all.filter((a) => a.state !== 'current' && a.state !== 'unaffected');
          return (
            <>
              <p className="badges">
                <span>{all.length} artifacts</span>
                <Badge tone={stale.length === 0 ? 'good' : 'bad'}>
                  {stale.length === 0 ? 'none stale' : `${stale.length} stale or to review`}
                </Badge>
              </p>
              {all.length === 0 ? <p className="muted">No artifact is registered.</p> : null}
              <Limited items={sorted} limit={50} noun="artifacts">
                {(shown) => (
                  <div className="artifacts">
                    {shown.map((a) => (
                      <Artifact key={a.manifest.artifact_id} a={a} />
                    ))}
                  </div>
                )}
              </Limited>
            </>
          );
        }}
      </QueryState>
    </>
  );
}
