// @ts-check
/** The PostgreSQL the benches use: `CANONRY_BENCH_PG`, by default the local `test` database. */
export const BENCH_PG = process.env.CANONRY_BENCH_PG ?? 'postgres://postgres@127.0.0.1:5432/test';

/** The bench database's URL with `search_path` set to `schema`. @param {string} schema */
export const inSchema = (schema) =>
  `${BENCH_PG}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
