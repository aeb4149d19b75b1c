// Loaded on first visit (React.lazy in views/index.ts): the board does not pay for it.
export { EvolutionView as default } from './evolution-view.js';
