// Loaded on first visit (React.lazy in views/index.ts): the board does not pay for it.
export { JournalView as default } from './journal-view.js';
