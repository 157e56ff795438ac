/**
 * Structured logs: every line is JSON with the room code (and the seat) in context, Colyseus's
 * console-style messages arrive whole through the adapter, and no secret ever reaches a line.
 * A real game with private talk, a pact, a reconnection (token), a seat reclaim (key) and a
 * finished result is played at `trace` on a real server, then its logs are searched for every
 * seat key, reconnection token, the restore token and the private texts.
 */
import { Writable } from 'node:stream';
import { matchMaker } from '@colyseus/core';
import type { RunningServer } from '../../server/src/app.js';
import { observabilityFromEnv } from '../../server/src/obs/index.js';
import { CENSORED, colyseusLogger, createLogger, scrub } from '../../server/src/obs/log.js';
import { join, leaveAll, playRandomGame, quietSdkWarnings, sdk, TestClient, type State } from './helpers.js';
import { pressRoom, sendAndWait, startPressServer } from './pressHelpers.js';
import { TestClock } from '../support/clock.js';

quietSdkWarnings();

type Line = Record<string, unknown> & { msg?: string; level: number };

/** A pino destination that keeps every line. */
function capture(): { stream: Writable; lines: () => Line[]; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  const text = () => chunks.join('');
  return {
    stream,
    text,
    lines: () =>
      text()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Line),
  };
}

describe('the logger', () => {
  test('redacts secret keys at any depth, by path and in every argument', () => {
    const out = capture();
    const log = createLogger({ level: 'trace', destination: out.stream });
    log.info({ seatKey: 'K1', join: { seatKey: 'K2', name: 'ann' }, deep: { a: { b: { reconnectionToken: 'K3', text: 'K4' } } } }, 'joined');
    log.child({ room: 'ABCDEF', seat: 'R' }).warn({ req: { headers: { authorization: 'Basic K5' } } }, 'x');
    const [a, b] = out.lines();
    expect(a).toMatchObject({
      msg: 'joined',
      seatKey: CENSORED,
      join: { seatKey: CENSORED, name: 'ann' },
      deep: { a: { b: { reconnectionToken: CENSORED, text: CENSORED } } },
    });
    expect(b).toMatchObject({ room: 'ABCDEF', seat: 'R', req: { headers: { authorization: CENSORED } } });
    expect(out.text()).not.toMatch(/K[1-5]/);
  });

  test('the Colyseus adapter joins console-style arguments (pino alone keeps only the first) and scrubs them', () => {
    const out = capture();
    const log = createLogger({ level: 'debug', destination: out.stream });
    const adapter = colyseusLogger(log);
    adapter.debug('✅', 3, 'room(s) have been restored.');
    adapter.info('state =>', { seatKey: 'SECRET-1', n: 2 });
    adapter.trace('below the level');
    const lines = out.lines();
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ src: 'colyseus', msg: '✅ 3 room(s) have been restored.' });
    expect(lines[1].msg).toContain('n: 2');
    expect(out.text()).not.toContain('SECRET-1');
    expect(scrub({ list: [{ token: 'x' }], ok: 1 })).toEqual({ list: [{ token: CENSORED }], ok: 1 });
  });
  test('LOG_LEVEL: default info, any pino level or silent, anything else refused at start', () => {
    expect(observabilityFromEnv({}).log?.level).toBe('info');
    expect(observabilityFromEnv({ LOG_LEVEL: 'DEBUG' }).log?.level).toBe('debug');
    expect(observabilityFromEnv({ LOG_LEVEL: 'silent' }).log?.level).toBe('silent');
    expect(() => observabilityFromEnv({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent/);
    const env = observabilityFromEnv({ METRICS_TOKEN: ' t ', MONITOR_PASSWORD: 'p' });
    expect({ metricsToken: env.metricsToken, monitorPassword: env.monitorPassword }).toEqual({ metricsToken: 't', monitorPassword: 'p' });
  });
});

describe('a played game', () => {
  const clock = TestClock.following();
  const out = capture();
  let server: RunningServer;
  beforeAll(async () => {
    server = await startPressServer(clock, { observability: { log: createLogger({ level: 'trace', destination: out.stream }) } });
  });
  afterAll(async () => {
    await server.close();
  });

  test('logs every step with its room and seat, and no seat key, token or private text', async () => {
    const room = await pressRoom(server, { rules: { players: 4 } }, 1);
    const [R, B, Y] = ['R', 'B', 'Y'].map(room.by);
    const secrets: string[] = [];
    const privateTexts = ['PRIVATE-dm-one', 'PRIVATE-dm-two', 'PRIVATE-group-one'];
    await sendAndWait(R, 'press_open', { members: ['B'] }, B, 'press_channel');
    await sendAndWait(R, 'press_send', { channel: 'dm:RB', text: privateTexts[0] }, B, 'press_message');
    await sendAndWait(B, 'press_send', { channel: 'dm:RB', text: privateTexts[1] }, R, 'press_message');
    await sendAndWait(R, 'press_open', { members: ['B', 'Y'] }, Y, 'press_channel');
    await sendAndWait(Y, 'press_send', { channel: 'group:RBY', text: privateTexts[2] }, B, 'press_message');
    clock.advance(10_000);
    await sendAndWait(R, 'pact_propose', { with: ['B'] }, B, 'pact');

    // A reconnection with the Colyseus token, then a seat reclaim with the seat key.
    const token = B.room.reconnectionToken;
    B.room.connection.close();
    await R.waitState((s) => s.seats.get('B').presence === 'reconnecting', 'B reconnecting');
    const back = new TestClient(await B.sdk.reconnect<State>(token), B.sdk);
    await back.waitMessage('seat');
    const { seatKey } = back.seat!;
    const again = await join(server, room.code, { seatKey });
    await back.waitLeft();
    // A stale token: Colyseus refuses it and says so through its logger.
    await expect(sdk(server).reconnect(token)).rejects.toThrow();

    const live = matchMaker.getLocalRoomById(room.code) as unknown as { settings: { restoreToken: string } };
    secrets.push(live.settings.restoreToken, token, again.room.reconnectionToken, ...room.all.map((c) => c.room.reconnectionToken));
    for (const c of [...room.players, again]) for (const s of c.received('seat')) secrets.push(s.seatKey);
    const players = [R, again, Y, room.by('G')];
    await playRandomGame(players, [R, ...room.spectators], 7, { maxTurns: 12 });

    await leaveAll([...room.all, again]);
    await R.waitLeft();
    const lines = out.lines();
    const text = out.text();

    // Positive controls: the logs hold the story of the game, in context.
    const ofRoom = lines.filter((l) => l.room === room.code);
    expect(ofRoom.some((l) => l.msg === 'room created')).toBe(true);
    expect(ofRoom.filter((l) => l.msg === 'player joined').map((l) => l.seat)).toEqual(expect.arrayContaining(['R', 'B', 'Y', 'G']));
    expect(ofRoom.some((l) => l.msg === 'spectator joined' && typeof l.spectator === 'string')).toBe(true);
    expect(ofRoom.some((l) => l.msg === 'player joined' && l.seat === 'B' && l.reclaim === true)).toBe(true);
    expect(ofRoom.some((l) => l.msg === 'player left' && l.seat === 'B' && l.consented === false)).toBe(true);
    expect(lines.some((l) => l.src === 'colyseus' && /reconnection token invalid or expired/.test(String(l.msg)))).toBe(true);
    expect(text).toContain(room.code);

    // No secret, anywhere.
    expect(secrets.length).toBeGreaterThanOrEqual(10);
    for (const secret of new Set(secrets.filter(Boolean))) expect({ secret, found: text.includes(secret) }).toEqual({ secret, found: false });
    for (const t of privateTexts) expect({ t, found: text.includes(t) }).toEqual({ t, found: false });
    expect(text).not.toContain('PRIVATE');
  });
});
