// @ts-check
/**
 * Replays chosen family scenarios through one canonry runtime (the embedded SQLite, or the database
 * `db` names) and returns canonry's answers beside each scenario's truth, for the tests that hold
 * the bench's expectations against both engines.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCanonry } from 'canonry/app';
import { FamilyReplay } from './canonry.js';
import { evaluate } from './evaluate.js';
import { generateFamilies } from './plan.js';

/** @param {string[]} ids @param {string} [db] */
export async function replayFamilies(ids, db) {
  const dir = mkdtempSync(join(tmpdir(), 'canonry-bench-families-'));
  const runtime = await createCanonry({ dataDir: dir, logLevel: 'silent', ...(db ? { db } : {}) });
  try {
    const out = [];
    for (const s of generateFamilies().filter((x) => ids.includes(x.id))) {
      const replay = new FamilyReplay(runtime, s.project, s.events);
      for (const e of s.events) await replay.apply(e);
      const r = await evaluate(s, replay);
      out.push({
        id: s.id,
        family: s.family,
        truth: s.truth,
        canonry: r.answers.canonry,
        errors: r.errors,
      });
    }
    return out;
  } finally {
    await runtime.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
