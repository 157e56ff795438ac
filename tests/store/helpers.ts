/**
 * Helpers of the store tests: a played match to store, synthetic events, and a private
 * PostgreSQL database per test file (`djambi_test_<random>`, dropped afterwards).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { type Colour, randomTurn } from '@djambi/shared';
import pg from 'pg';
import { Match, type MatchEvent } from '../../server/src/match/match.js';
import { parseRoomConfig, type RoomConfig } from '../../server/src/match/config.js';
import { seeded } from '../support/random.js';

/** A valid room config (`visibility` as given). */
export function roomConfig(visibility: RoomConfig['visibility'] = 'private'): RoomConfig {
  const parsed = parseRoomConfig({ visibility, clock: { initialSeconds: 600, incrementSeconds: 5 } }, { graceSeconds: 20, idleSeconds: 600 });
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value;
}

/** A 4-player match: seated, started and `turns` random turns played (seeded). */
export function playedMatch(turns: number, seed = 7, t0 = 1_700_000_000_000): Match {
  const match = new Match(roomConfig('public'));
  const random = seeded(seed);
  let now = t0;
  const colours: Colour[] = [];
  for (let i = 0; i < match.seats.seats.size; i++) {
    const out = match.apply({ type: 'take_seat', name: `p${i}` }, now++);
    if (!out.ok || !out.seat) throw new Error('take_seat refused');
    colours.push(out.seat.colour);
  }
  const start = match.apply({ type: 'start', colour: colours[0]!, creatorConnected: true }, now++);
  if (!start.ok) throw new Error(`start refused: ${start.rejection.code}`);
  for (let i = 0; i < turns && match.phase === 'playing'; i++) {
    now += 1000;
    const mover = match.position.toMove!;
    const out = match.apply({ type: 'turn', colour: mover, turn: randomTurn(match.position, random), version: match.game.length }, now);
    if (!out.ok) throw new Error(`turn refused: ${out.rejection.code}`);
  }
  return match;
}

/** A small synthetic event at `at` (the store does not interpret events). */
export function event(at: number, text = 'hi'): MatchEvent {
  return { at, intent: { type: 'press', member: 'R', message: 'press_send', payload: { channel: 'table', text } } };
}

/** A fresh game code (6 characters, like a room code). */
export function newCode(): string {
  return randomBytes(4).toString('base64url').replace(/[-_]/g, 'x').slice(0, 6).toUpperCase();
}

/** The server that holds the test databases: `PG_TEST_URL`, or the machine's local service. */
export const PG_ADMIN_URL = process.env.PG_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * Whether PostgreSQL answers, checked synchronously (jest defines tests synchronously) in a child
 * process that tries one query within 3 s.
 */
export function isPgReachable(url = PG_ADMIN_URL): boolean {
  const script = `const pg=require('pg');const c=new pg.Client({connectionString:process.argv[1],connectionTimeoutMillis:3000});c.connect().then(()=>c.query('SELECT 1')).then(()=>process.exit(0),()=>process.exit(1));`;
  try {
    execFileSync(process.execPath, ['-e', script, url], { stdio: 'ignore', timeout: 5000, cwd: __dirname });
    return true;
  } catch {
    return false;
  }
}

/**
 * Declares the tests of `body` when PostgreSQL is reachable. When it is not: a message and a
 * skipped test, except under CI=true, where a failing test says why (`.ci/run` provides a server).
 */
export function withPostgres(what: string, body: () => void): void {
  if (isPgReachable()) return body();
  if (process.env.CI === 'true') {
    test('PostgreSQL is reachable (required under CI)', () => {
      throw new Error(`PostgreSQL is not reachable at ${PG_ADMIN_URL}: the ${what} cannot run`);
    });
  } else {
    console.warn(`PostgreSQL is not reachable at ${PG_ADMIN_URL}: skipping the ${what} (they fail under CI=true)`);
    test.skip(`${what} (no server reachable)`, () => {});
  }
}

/** A database of its own on the PostgreSQL server: its URL, and `drop` to remove it. */
export interface TestDatabase {
  readonly url: string;
  drop(): Promise<void>;
}

/** Creates `djambi_test_<random>` on the admin server. */
export async function createTestDatabase(adminUrl = PG_ADMIN_URL): Promise<TestDatabase> {
  const name = `djambi_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
