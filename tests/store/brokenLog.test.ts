/**
 * A broken game log (issue 43, item 5): a gap in the seqs, an unknown colour, a 3 MB chat text,
 * an event the match refuses, a payload that is not JSON. Such a log is read as its longest valid
 * prefix: the game re-opens at boot from that prefix and plays on (its next event is saved as the
 * prefix's length + 1), the events after it are moved to `quarantined_events` with the reason,
 * and one log line names the game, the first bad seq, the reason, how many events moved and
 * where they are. Before this, each such game answered `503 storage_unavailable` for good. On a
 * real SQLite file and on PostgreSQL (skipped locally without a server, required under CI).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import { Writable } from 'node:stream';
import Database from 'better-sqlite3';
import pg from 'pg';
import { CODE_ALPHABET, CODE_LENGTH, type Colour, randomTurn } from '@djambi/shared';
import type { RunningServer } from '../../server/src/app.js';
import { Match, type MatchEvent } from '../../server/src/match/match.js';
import { createLogger } from '../../server/src/obs/log.js';
import { createMetrics } from '../../server/src/obs/metrics.js';
import { numbered } from '../../server/src/store/migrations.js';
import { readLog } from '../../server/src/store/rows.js';
import { type GameStore, PgStore, SqliteStore } from '../../server/src/store/index.js';
import { join, quietSdkWarnings, randomTurnFor, seeded, startServer, type TestClient } from '../server/helpers.js';
import { createTestDatabase, roomConfig, withPostgres } from './helpers.js';

quietSdkWarnings();
jest.setTimeout(60_000);

/** A started 4-player match of `turns` seeded turns, with its seat keys. */
function seatedMatch(turns: number, t0: number): { match: Match; keys: Map<Colour, string> } {
  const match = new Match(roomConfig('public'));
  const keys = new Map<Colour, string>();
  const random = seeded(11);
  let now = t0;
  for (let i = 0; i < match.seats.seats.size; i++) {
    const out = match.apply({ type: 'take_seat', name: `p${i}` }, now++);
    if (!out.ok || !out.seat) throw new Error('take_seat refused');
    keys.set(out.seat.colour, out.seat.key);
  }
  const first = [...keys.keys()][0]!;
  if (!match.apply({ type: 'start', colour: first }, now++).ok) throw new Error('start refused');
  for (let i = 0; i < turns; i++) {
    now += 1000;
    const out = match.apply({ type: 'turn', colour: match.position.toMove!, turn: randomTurn(match.position, random), version: match.game.length }, now);
    if (!out.ok) throw new Error(`turn refused: ${out.rejection.code}`);
  }
  return { match, keys };
}

/** A fresh room code (one the HTTP routes accept). */
function roomCode(): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i++) code += CODE_ALPHABET[Math.floor(Math.random() * CODE_ALPHABET.length)];
  return code;
}

/** One way to break a log: the rows to store (seq, payload) from the match's 12 payloads, and what must come of them. */
interface Breakage {
  readonly name: string;
  rows(payloads: readonly string[], events: readonly MatchEvent[]): [number, string][];
  /** Length of the valid prefix. */
  readonly prefix: number;
  /** Seqs moved to the quarantine. */
  readonly quarantined: readonly number[];
  /** The seq the log line names as the first bad one. */
  readonly firstBad: number;
  readonly reason: RegExp;
}

const numberedRows = (payloads: readonly string[]): [number, string][] => payloads.map((p, i) => [i + 1, p]);
const withColour = (payload: string, colour: string): string => {
  const e = JSON.parse(payload) as { intent: { colour?: string } };
  e.intent.colour = colour;
  return JSON.stringify(e);
};
const chat = (at: number, text: string): string =>
  JSON.stringify({ at, intent: { type: 'press', member: 'R', message: 'press_send', payload: { channel: 'table', text } } });

/** The 12 events: 4 seats taken (1–4), the start (5), 7 turns (6–12). */
const BREAKAGES: readonly Breakage[] = [
  {
    name: 'a gap (seq 1–5, then 11, 12)',
    rows: (p) => numberedRows(p).filter(([seq]) => seq <= 5 || seq >= 11),
    prefix: 5,
    quarantined: [11, 12],
    firstBad: 6,
    reason: /gap/,
  },
  {
    name: 'an unknown colour Q',
    rows: (p) => numberedRows(p.map((x, i) => (i === 7 ? withColour(x, 'Q') : x))),
    prefix: 7,
    quarantined: [8, 9, 10, 11, 12],
    firstBad: 8,
    reason: /colour/,
  },
  {
    name: 'a 3 MB chat text',
    rows: (p, e) => numberedRows([...p.slice(0, 8), chat(e[7]!.at + 1, 'x'.repeat(3 * 1024 * 1024)), ...p.slice(8)]),
    prefix: 8,
    quarantined: [9, 10, 11, 12, 13],
    firstBad: 9,
    reason: /text/,
  },
  {
    name: 'an event the match refuses (a turn played twice)',
    rows: (p) => numberedRows([...p.slice(0, 8), p[7]!, ...p.slice(8)]),
    prefix: 8,
    quarantined: [9, 10, 11, 12, 13],
    firstBad: 9,
    reason: /refused/,
  },
  {
    name: 'a payload that is not JSON',
    rows: (p) => numberedRows([...p.slice(0, 8), '{"at": 1, "intent":', ...p.slice(8)]),
    prefix: 8,
    quarantined: [9, 10, 11, 12, 13],
    firstBad: 9,
    reason: /JSON/,
  },
];

/** A store on a real database, and SQL on that database outside the store (`?` placeholders). */
interface Backend {
  readonly store: GameStore;
  sql(text: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

type Line = Record<string, unknown> & { msg: string };

/** A pino destination that keeps every line. */
function capture(): { stream: Writable; lines: () => Line[] } {
  let text = '';
  const stream = new Writable({
    write(chunk, _enc, done) {
      text += String(chunk);
      done();
    },
  });
  return {
    stream,
    lines: () =>
      text
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Line),
  };
}

/** The broken-log tests on one backend. */
function brokenLogSuite(open: () => Promise<Backend>): void {
  const t0 = Date.now() - 100_000;
  const { match, keys } = seatedMatch(7, t0);
  const events = match.events;
  const payloads = events.map((e) => JSON.stringify(e));
  const games = new Map<string, { code: string; rows: [number, string][] }>();
  const out = capture();
  let backend: Backend;
  let server: RunningServer;
  const metrics = createMetrics({ defaults: false });
  const clients: TestClient[] = [];

  beforeAll(async () => {
    expect(events).toHaveLength(12);
    backend = await open();
    for (const b of BREAKAGES) {
      const code = roomCode();
      const rows = b.rows(payloads, events);
      await backend.store.createGame(code, match.config, t0);
      for (const [seq, payload] of rows) {
        await backend.sql('INSERT INTO events (game_id, seq, payload, at) VALUES (?, ?, ?, ?)', [code, seq, payload, t0 + seq]);
      }
      games.set(b.name, { code, rows });
    }
    // The boot restore re-opens every unfinished game, these ones included.
    server = await startServer({ store: backend.store, observability: { log: createLogger({ level: 'info', destination: out.stream }), metrics } });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.room.leave(true).catch(() => undefined)));
    await server?.close();
    await backend?.close();
  });

  describe.each(BREAKAGES)('$name', (b) => {
    test('the game is its longest valid prefix and plays on; the rest is quarantined, with one log line', async () => {
      const { code, rows } = games.get(b.name)!;
      const prefix = Match.restore(match.config, events.slice(0, b.prefix));

      // The archive reads the prefix (it answered 503 storage_unavailable).
      const res = await fetch(`${server.url}/api/games/${code}`);
      expect({ status: res.status, body: await res.json() }).toMatchObject({ status: 200, body: { code, phase: 'playing', moves: prefix.game.length } });

      // The player to move comes back with its key and plays a turn: saved after the prefix.
      const mover = prefix.position.toMove!;
      const player = await join(server, code, { seatKey: keys.get(mover) });
      clients.push(player);
      const version = player.state.version as number;
      expect(version).toBe(prefix.game.length);
      player.room.send('turn', { ...randomTurnFor(player.state, seeded(5)), version });
      await player.waitState((s) => s.version === version + 1, 'the turn after the prefix');

      // The log: the prefix, the restore's `resume`, the turn; seqs 1.. without a gap.
      const logged = await backend.sql('SELECT seq, payload FROM events WHERE game_id = ? ORDER BY seq', [code]);
      expect(logged.map((r) => Number(r.seq))).toEqual(Array.from({ length: b.prefix + 2 }, (_, i) => i + 1));
      expect(logged.slice(0, b.prefix).map((r) => r.payload)).toEqual(payloads.slice(0, b.prefix));
      const stored = await backend.store.load(code);
      expect(stored!.events).toHaveLength(b.prefix + 2);

      // The quarantine: every event after the prefix, as it was stored, with the reason.
      const moved = await backend.sql('SELECT seq, payload, reason FROM quarantined_events WHERE game_id = ? ORDER BY seq', [code]);
      expect(moved.map((r) => Number(r.seq))).toEqual(b.quarantined);
      expect(moved.map((r) => r.payload)).toEqual(rows.filter(([seq]) => b.quarantined.includes(seq)).map(([, p]) => p));
      for (const r of moved) expect(r.reason).toMatch(b.reason);
      expect(await backend.store.quarantined(code)).toEqual(
        moved.map((r) => expect.objectContaining({ seq: Number(r.seq), payload: r.payload, reason: r.reason })),
      );

      // One line an operator can act on.
      const lines = out.lines().filter((l) => l.game === code && /quarantin/.test(l.msg));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({ game: code, seq: b.firstBad, moved: b.quarantined.length, where: expect.stringMatching(/quarantined_events/) });
      expect(lines[0]!.reason).toMatch(b.reason);
      // Nothing the players wrote reaches the log.
      expect(JSON.stringify(lines[0]).length).toBeLessThan(1000);
    });
  });

  test('the metrics count every quarantine and the events moved', async () => {
    const text = await metrics.render();
    expect(text).toMatch(new RegExp(`^djambi_log_quarantines_total ${BREAKAGES.length}$`, 'm'));
    const moved = BREAKAGES.reduce((n, b) => n + b.quarantined.length, 0);
    expect(text).toMatch(new RegExp(`^djambi_log_quarantined_events_total ${moved}$`, 'm'));
  });
}

describe('on a SQLite file', () => {
  const dir = mkdtempSync(joinPath(tmpdir(), 'djambi-broken-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  brokenLogSuite(async () => {
    const file = joinPath(dir, 'broken.sqlite');
    const store = SqliteStore.open(file);
    const raw = new Database(file);
    return {
      store,
      sql: async (text, params = []) => {
        const stmt = raw.prepare(text);
        if (stmt.reader) return stmt.all(...params) as Record<string, unknown>[];
        stmt.run(...params);
        return [];
      },
      close: async () => {
        raw.close();
        await store.close();
      },
    };
  });
});

withPostgres('broken-log tests on PostgreSQL', () => {
  describe('on PostgreSQL', () => {
    brokenLogSuite(async () => {
      const db = await createTestDatabase();
      const store = await PgStore.open({ connectionString: db.url });
      const raw = new pg.Client({ connectionString: db.url });
      await raw.connect();
      return {
        store,
        sql: async (text, params = []) => (await raw.query(numbered(text), params)).rows,
        close: async () => {
          await raw.end();
          await store.close();
          await db.drop();
        },
      };
    });
  });
});

describe('the longest valid prefix', () => {
  const t0 = 1_700_000_000_000;
  const { match } = seatedMatch(7, t0);
  const events: unknown[] = JSON.parse(JSON.stringify(match.events));

  test('a log this server wrote replays whole, to the same match as restore', () => {
    const { match: valid, broken } = Match.restoreValid(match.config, events);
    expect(broken).toBeNull();
    expect(valid.events).toEqual(Match.restore(match.config, events as MatchEvent[]).events);
    expect(valid.game.length).toBe(7);
  });

  const at = (i: number) => (events[i] as MatchEvent).at;
  const withIntent = (i: number, change: Record<string, unknown>) => {
    const e = structuredClone(events[i]) as { intent: Record<string, unknown> };
    Object.assign(e.intent, change);
    return e;
  };
  test.each([
    ['not an object', 8, () => 'hello', /not an event/],
    ['no time', 8, () => ({ intent: (events[8] as MatchEvent).intent }), /"at"/],
    ['an unknown intent type', 8, () => ({ at: at(8), intent: { type: 'teleport' } }), /unknown intent type/],
    ['a colour that is no seat', 8, () => withIntent(8, { colour: 'Q' }), /colour/],
    ['a square that is no square', 8, () => withIntent(8, { turn: { from: 'e5e5e5', to: 'e6' } }), /square/],
    ['a name over the limit', 2, () => withIntent(2, { name: 'n'.repeat(25) }), /name/],
    [
      'a press payload its schema refuses',
      8,
      () => ({ at: at(7) + 1, intent: { type: 'press', member: 'R', message: 'press_read', payload: { channel: 'table' } } }),
      /schema/,
    ],
    ['a chat text over the limit', 8, () => JSON.parse(chat(at(7) + 1, 'x'.repeat(501))), /text refused \(message_too_long\)/],
    [
      'an unknown press message',
      8,
      () => ({ at: at(7) + 1, intent: { type: 'press', member: 'R', message: 'press_shout', payload: {} } }),
      /unknown press message/,
    ],
    ['a turn out of turn', 8, () => events[7], /refused by the match: not_your_turn/],
    ['a second start', 8, () => events[4], /refused by the match: already_started/],
  ])('%s: the prefix ends before it, the match is the prefix', (_name, index, bad, reason) => {
    const log = [...events.slice(0, index), bad(), ...events.slice(index)];
    const { match: valid, broken } = Match.restoreValid(match.config, log);
    expect(broken).toEqual({ seq: index + 1, reason: expect.stringMatching(reason) });
    expect(valid.events).toEqual(Match.restore(match.config, events.slice(0, index) as MatchEvent[]).events);
  });

  test('no reason quotes what a player wrote', () => {
    const secret = 'my secret plan '.repeat(40);
    const { broken } = Match.restoreValid(match.config, [...events.slice(0, 8), JSON.parse(chat(at(7) + 1, secret))]);
    expect(broken!.reason).not.toContain('secret');
  });
});

describe('readLog: a stored log up to its first gap or unreadable payload', () => {
  const p = (at: number) => JSON.stringify({ at });
  test.each([
    [
      'a whole log',
      [
        [1, p(1)],
        [2, p(2)],
        [3, p(3)],
      ],
      [1, 2, 3],
      null,
    ],
    ['an empty log', [], [], null],
    [
      'a gap',
      [
        [1, p(1)],
        [2, p(2)],
        [5, p(5)],
      ],
      [1, 2],
      { seq: 3, reason: 'gap: no seq 3 (the log goes on at seq 5)' },
    ],
    ['a log that does not start at 1', [[2, p(2)]], [], { seq: 1, reason: 'gap: the log starts at seq 2' }],
    [
      'a payload that is not JSON',
      [
        [1, p(1)],
        [2, '{"at":'],
        [3, p(3)],
      ],
      [1],
      { seq: 2, reason: 'payload is not JSON' },
    ],
    [
      'a payload of two values',
      [
        [1, p(1)],
        [2, `${p(2)},${p(2)}`],
        [3, p(3)],
      ],
      [1],
      { seq: 2, reason: 'payload is not JSON' },
    ],
    [
      'a payload that is not text',
      [
        [1, p(1)],
        [2, Buffer.from(p(2))],
      ],
      [1],
      { seq: 2, reason: 'payload is not text' },
    ],
    [
      'a bad payload after a gap is not read',
      [
        [1, p(1)],
        [3, 'junk'],
      ],
      [1],
      { seq: 2, reason: 'gap: no seq 2 (the log goes on at seq 3)' },
    ],
  ] as const)('%s', (_name, rows, ats, broken) => {
    const out = readLog(rows as unknown as [number, unknown][]);
    expect(out.events.map((e) => e.at)).toEqual(ats);
    expect(out.broken).toEqual(broken);
  });
});
