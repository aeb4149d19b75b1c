// @ts-check
/**
 * A profiling target: 8 journals with a connection each appending to one PostgreSQL project for N
 * seconds; prints appends/s and the CPU this process and the database's backends spent per append.
 * `node bench/journal/tools/pg-hot-loop.js [seconds] [writers] [park]` (`park`: forwarding off, so
 * a contended project's appends park in the database).
 */
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';
import { oneConnectionJournals, verdictInputs } from '../../lib/journal-data.js';
import { progress } from '../../lib/measure.js';
import { BENCH_PG as DATABASE, inSchema } from '../../lib/postgres.js';
import { INPUT_MASK as M } from '../../lib/refund.js';
import { concurrently } from '../../lib/windows.js';

const seconds = Number(process.argv[2] ?? 5);
const writers = Number(process.argv[3] ?? 8);
const schema = `hot_${Date.now().toString(36)}`;
const url = inSchema(schema);

/** CPU ticks (1/100 s) of every postgres process on this machine. */
function postgresTicks() {
  let ticks = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (!name.startsWith('postgres')) continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {}
  }
  return ticks;
}

const admin = new pg.Client({ connectionString: DATABASE });
await admin.connect();
await admin.query(`CREATE SCHEMA ${schema}`);
const { inputs, signer, remove } = await verdictInputs();
const { stores, journals } = await oneConnectionJournals(url, writers, signer, {
  forward: process.argv[4] !== 'park',
});
let k = 0;
await concurrently(writers, performance.now() + 1000, (p) =>
  /** @type {import('canonry/journal').Journal} */ (journals[p]).append(
    'shared',
    /** @type {any} */ (inputs[k++ & M]),
  ),
);
const cpu0 = process.cpuUsage();
const pg0 = postgresTicks();
const n = await concurrently(writers, performance.now() + seconds * 1000, (p) =>
  /** @type {import('canonry/journal').Journal} */ (journals[p]).append(
    'shared',
    /** @type {any} */ (inputs[k++ & M]),
  ),
);
const cpu = process.cpuUsage(cpu0);
const pgMs = (postgresTicks() - pg0) * 10;
progress(
  'pg-hot-loop',
  `${n} appends in ${seconds} s with ${writers} writers: ${Math.round(n / seconds)}/s; node ${((cpu.user + cpu.system) / 1000 / n).toFixed(3)} ms/append (system ${(cpu.system / 1000 / n).toFixed(3)}), postgres ${(pgMs / n).toFixed(3)} ms/append`,
);
const forwarded = journals.reduce((sum, j) => sum + j.stats().forwarded.sent, 0);
progress('pg-hot-loop', `${forwarded} appends forwarded to the project's leader`);
for (const j of journals) await j.close();
for (const store of stores) await store.close();
await admin.query(`DROP SCHEMA ${schema} CASCADE`);
await admin.end();
remove();
