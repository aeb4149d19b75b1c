// @ts-check
/**
 * Writes the relay corpus (`bench/relay/corpus/sessions.jsonl`): one recorded window a line, seeded,
 * so the bench replays the same outputs every run. `node bench/relay/generate-corpus.js`.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { progress } from '../lib/measure.js';
import { runIfMain, table } from '../lib/report.js';
import { generateCorpus } from './lib/corpus.js';

export const CORPUS_SIZE = { sessions: 8, windows: 10, facts: 12, decisions: 3, filler: 10 };
export const CORPUS_SEED = 2026;
export const CORPUS_PATH = fileURLToPath(new URL('./corpus/sessions.jsonl', import.meta.url));

/** @returns {Promise<import('../lib/report.js').BenchResult>} */
export async function main() {
  const windows = generateCorpus(CORPUS_SEED, CORPUS_SIZE);
  writeFileSync(CORPUS_PATH, `${windows.map((w) => JSON.stringify(w)).join('\n')}\n`);
  progress('relay/generate-corpus', `${windows.length} windows written to ${CORPUS_PATH}`);
  return {
    name: 'generate-corpus',
    title: 'The relay corpus (regenerated, seeded)',
    tables: [
      table(
        ['corpus', 'value'],
        [
          ['sessions × windows', `${CORPUS_SIZE.sessions} × ${CORPUS_SIZE.windows}`],
          [
            'new facts / decisions / filler sentences a window',
            `${CORPUS_SIZE.facts} / ${CORPUS_SIZE.decisions} / ${CORPUS_SIZE.filler}`,
          ],
        ],
      ),
    ],
    data: { windows: windows.length, ...CORPUS_SIZE },
  };
}

runIfMain(import.meta.url, main);
