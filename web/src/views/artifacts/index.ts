// Loaded on first visit (React.lazy in views/index.ts): the board does not pay for it.
export { ArtifactsView as default } from './artifacts-view.js';
