// Loaded on first visit (React.lazy in views/index.ts): the board does not pay for it.
export { NoteView as default } from './note-view.js';
