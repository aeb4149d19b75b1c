/** The project the LCSM story (`canonry demo --lcsm`) runs in. */
export const STORY_PROJECT = 'demo';
