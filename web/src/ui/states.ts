import type { ArtifactStatus } from '../api/types.js';
import type { Tone } from './badges.js';

/** An artifact's §10 state as a tone: fine, doubtful, or stale (its words say the same). */
export function artifactTone(state: ArtifactStatus['state']): Tone {
  if (state === 'current' || state === 'unaffected') return 'good';
  return state === 'possibly_stale' ? 'warn' : 'bad';
}
