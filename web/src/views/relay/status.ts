import type { Tone } from '../../ui/badges.js';

/** A session's status as a badge tone. */
export const statusTone = (status: string): Tone =>
  status === 'complete' ? 'good' : status === 'halted' ? 'bad' : 'warn';
