import pg from 'pg';
import { median, medianOf } from './measure.js';

// What a durable step's cost is measured against, on the same PostgreSQL: a round trip, and a
// committed single-row INSERT (what a checkpoint is at least).

/** ms of one `SELECT 1` round trip (median of rounds of 100). */
export async function postgresRoundTripMs(databaseUrl: string): Promise<number> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    return await medianOf(async () => {
      const start = performance.now();
      for (let i = 0; i < 100; i++) await db.query('SELECT 1');
      return (performance.now() - start) / 100;
    });
  } finally {
    await db.end();
  }
}

/** ms of one committed single-row INSERT into a scratch table of the same PostgreSQL (median of rounds of 100). */
export async function insertCommitMs(databaseUrl: string, rounds = 5): Promise<number> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query('CREATE TABLE IF NOT EXISTS bench_insert_baseline (id bigserial PRIMARY KEY, body jsonb)');
    const figures: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const start = performance.now();
      for (let i = 0; i < 100; i++) {
        await db.query('INSERT INTO bench_insert_baseline (body) VALUES ($1)', [JSON.stringify({ i })]);
      }
      figures.push((performance.now() - start) / 100);
    }
    return median(figures);
  } finally {
    await db.query('DROP TABLE IF EXISTS bench_insert_baseline').catch(() => undefined);
    await db.end();
  }
}
