/**
 * A bug thrown inside one room (fault injection on the live room of an in-process server): the
 * process and every other room go on; the faulted room logs the error (never the message that
 * caused it), counts it, closes its clients with 4101 (`CLOSE_CODES.roomFault`) and goes away;
 * its players rejoin by code with their seat keys, the game re-opens from the log with every
 * accepted event, and play goes on. Covered: publishing an accepted turn (the turn was saved: it
 * is there after the re-open), a message handler before the journal (nothing saved), the frame
 * gate, a bot's turn (the asynchronous path), and a room timer.
 */
import { Writable } from 'node:stream';
import { CLOSE_CODES } from '@djambi/shared';
import { createLogger } from '../../server/src/obs/log.js';
import { Alarms } from '../../server/src/table/timers.js';
import { eventually } from '../support/wait.js';
import {
  createRoom,
  FAST_BOTS,
  fullRoom,
  join,
  leaveAll,
  quietSdkWarnings,
  randomTurnFor,
  roomOf,
  seeded,
  serverForTests,
  type State,
  type TestClient,
} from './helpers.js';

quietSdkWarnings();

/** What the rooms log through `console.error` while a test runs (the injected faults are expected). */
const logged: string[] = [];
beforeAll(() => {
  jest.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    logged.push(args.map((a) => (a instanceof Error ? `${a.stack}` : typeof a === 'string' ? a : JSON.stringify(a))).join(' '));
  });
});
afterAll(() => jest.restoreAllMocks());

/** The server's JSON log lines (its rooms log faults there). */
const lines: string[] = [];
const destination = new Writable({
  write(chunk, _encoding, done) {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    done();
  },
});
const server = serverForTests({ rooms: { bots: FAST_BOTS }, observability: { log: createLogger({ level: 'info', destination }) } });
/** Every log line and console error so far, as text. */
const everything = (): string[] => [...lines, ...logged];

/** A four-player game, started, with one spectator. */
async function started(): Promise<{ players: TestClient[]; all: TestClient[]; code: string }> {
  const room = await fullRoom(server(), { rules: { players: 4 } }, 1);
  room.players[0].room.send('start');
  await Promise.all(room.all.map((c) => c.waitState((s) => s.phase === 'playing', 'start')));
  return room;
}

/** Plays one random legal turn through the player to move and waits until everyone sees it. */
async function playOne(players: TestClient[], all: TestClient[], random: () => number): Promise<number> {
  const s = players[0].state as State;
  const version = s.version as number;
  const mover = players.find((p) => p.seat?.colour === s.toMove);
  if (!mover) throw new Error(`nobody holds ${s.toMove}`);
  mover.room.send('turn', { ...randomTurnFor(s, random), version });
  await Promise.all(all.map((c) => c.waitState((st) => st.version > version, `version after ${version}`)));
  return players[0].state.version as number;
}

/** Throws `once` from `obj[name]` on its next call, then restores it. */
function throwOnce(obj: Record<string, unknown>, name: string, message: string): void {
  const original = obj[name] as (...args: unknown[]) => unknown;
  obj[name] = (..._args: unknown[]) => {
    obj[name] = original;
    throw new Error(message);
  };
}

/** Every player back by code with its seat key (a spectator without one), as the client does after 4101. */
async function rejoin(code: string, players: TestClient[]): Promise<TestClient[]> {
  const back: TestClient[] = [];
  for (const p of players) {
    const seat = p.seat;
    back.push(await join(server(), code, seat ? { seatKey: seat.seatKey } : { spectate: true }));
  }
  return back;
}

async function faults(where: string): Promise<number> {
  const text = await (await fetch(`${server().url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`djambi_room_faults_total{where="${where}"}`));
  return line ? Number(line.split(' ').pop()) : 0;
}

/** The room closed its clients with 4101 and is gone; the other game still plays. */
async function closedAlone(all: TestClient[], code: string, other: { players: TestClient[]; all: TestClient[] }, random: () => number): Promise<void> {
  await Promise.all(all.map((c) => c.waitLeft()));
  for (const c of all) expect(c.left).toBe(CLOSE_CODES.roomFault);
  await eventually(
    () => matchMakerHas(code),
    (has) => !has,
    `room ${code} gone from the matchmaker`,
  );
  expect(matchMakerHas(code)).toBe(false);
  const before = other.players[0].state.version as number;
  expect(await playOne(other.players, other.all, random)).toBeGreaterThan(before);
}

function matchMakerHas(code: string): boolean {
  try {
    roomOf(code);
    return true;
  } catch {
    return false;
  }
}

/** A started game with one turn played, its seeded turns, and the fault count of `where` so far. */
async function gameBeforeFault(seed: number, where: string) {
  const random = seeded(seed);
  const game = await started();
  const v1 = await playOne(game.players, game.all, random);
  return { random, game, v1, before: await faults(where) };
}

describe('a bug inside one room', () => {
  let other: { players: TestClient[]; all: TestClient[]; code: string };
  beforeAll(async () => {
    other = await started();
  });
  afterAll(async () => {
    await leaveAll(other.all);
  });

  test('while publishing an accepted turn: the turn was saved, the room closes with 4101 and re-opens from the log', async () => {
    const { random, game, v1, before } = await gameBeforeFault(11, 'intent');
    // The turn is judged and saved, then publishing it throws.
    throwOnce(roomOf(game.code) as unknown as Record<string, unknown>, 'publish', 'injected: publish');
    const s = game.players[0].state as State;
    const mover = game.players.find((p) => p.seat?.colour === s.toMove) as TestClient;
    mover.room.send('turn', { ...randomTurnFor(s, random), version: v1 });
    await closedAlone(game.all, game.code, other, random);
    expect(await faults('intent')).toBe(before + 1);
    const line = lines.map((l) => JSON.parse(l)).find((l) => l.where === 'intent' && l.room === game.code);
    expect(line).toMatchObject({ level: 50, err: { message: 'injected: publish' } });

    const back = await rejoin(game.code, [...game.players, ...game.all.filter((c) => !game.players.includes(c))]);
    const players = back.slice(0, 4);
    // The turn whose publishing threw was saved before: it is in the re-opened game.
    expect(players[0].state.version).toBe(v1 + 1);
    for (const p of players) expect(p.state.fen).toBe(players[0].state.fen);
    expect(await playOne(players, back, random)).toBe(v1 + 2);
    await leaveAll(back);
  });

  test('in a message handler, before the journal: nothing is saved, and the secret text is not logged', async () => {
    const { random, game, v1, before } = await gameBeforeFault(12, 'onMessage');
    // The table's `act` (the room's handlers call it for every message) throws once.
    throwOnce((roomOf(game.code) as unknown as { table: Record<string, unknown> }).table, 'act', 'injected: handler');
    const secret = 'meet me at dawn, betray Blue';
    game.players[0].room.send('press_send', { channel: 'public', text: secret });
    await closedAlone(game.all, game.code, other, random);
    expect(await faults('onMessage')).toBe(before + 1);
    expect(lines.some((l) => l.includes('"where":"onMessage"') && l.includes('injected: handler'))).toBe(true);
    expect(everything().some((l) => l.includes(secret))).toBe(false);

    const back = await rejoin(game.code, game.players);
    expect(back[0].state.version).toBe(v1);
    expect(await playOne(back, back, random)).toBe(v1 + 1);
    await leaveAll(back);
  });

  test('a refused join is no fault: the room stays, its clients stay connected', async () => {
    const game = await started();
    await expect(join(server(), game.code, { seatKey: 'not-a-key-of-this-game-000000000000' })).rejects.toThrow();
    await new Promise((r) => setTimeout(r, 100));
    expect(matchMakerHas(game.code)).toBe(true);
    for (const c of game.all) expect(c.left).toBeNull();
    await leaveAll(game.all);
  });

  test('in the frame gate: the room closes with 4101, nothing is lost', async () => {
    const { random, game, v1, before } = await gameBeforeFault(13, 'frame');
    throwOnce((roomOf(game.code) as unknown as { gate: Record<string, unknown> }).gate, 'admit', 'injected: gate');
    game.players[1].room.send('ready', {});
    await closedAlone(game.all, game.code, other, random);
    expect(await faults('frame')).toBe(before + 1);
    const back = await rejoin(game.code, game.players);
    expect(back[0].state.version).toBe(v1);
    await leaveAll(back);
  });

  test("in the room's timer (the table's deadline reached): the room closes with 4101, nothing is lost", async () => {
    const { game, v1, before } = await gameBeforeFault(14, 'timer');
    const room = roomOf(game.code) as unknown as { table: Record<string, unknown>; wakeAt(at: number): void };
    throwOnce(room.table, 'tick', 'injected: tick');
    room.wakeAt(Date.now()); // what a publication whose deadline is now asks of the room
    await closedAlone(game.all, game.code, other, seeded(14));
    expect(await faults('timer')).toBe(before + 1);
    const back = await rejoin(game.code, game.players);
    expect(back[0].state.version).toBe(v1);
    await leaveAll(back);
  });

  test("while publishing a bot's turn (the asynchronous path): the room closes, and the bots play on after the re-open", async () => {
    const human = await createRoom(server(), { rules: { players: 4 }, bots: { B: 'easy', Y: 'easy', G: 'easy' }, autostart: true });
    const code = human.state.code as string;
    const me = human.seat?.colour as string;
    const before = await faults('intent');
    // The publishing of the next turn a bot plays throws (the player to move before it is a bot).
    const room = roomOf(code) as unknown as { publish: (publication: unknown) => void; match: { position: { toMove: string | null } } };
    const publish = room.publish;
    let mover = room.match.position.toMove;
    room.publish = (publication) => {
      if (mover !== null && mover !== me && room.match.position.toMove !== mover) {
        room.publish = publish;
        throw new Error('injected: bot publish');
      }
      mover = room.match.position.toMove;
      publish.call(room, publication);
    };
    const random = seeded(14);
    await human
      .waitState(
        (st) => {
          if (st.phase === 'playing' && st.toMove === me && human.left === null) human.room.send('turn', { ...randomTurnFor(st, random), version: st.version });
          return human.left !== null;
        },
        'the room closes',
        10_000,
      )
      .catch(() => undefined);
    await human.waitLeft(10_000);
    expect(human.left).toBe(CLOSE_CODES.roomFault);
    expect(await faults('intent')).toBe(before + 1);
    const back = await join(server(), code, { seatKey: human.seat?.seatKey });
    const at = back.state.version as number;
    await back.waitState(
      (st) => {
        if (st.phase === 'playing' && st.toMove === me) back.room.send('turn', { ...randomTurnFor(st, random), version: st.version });
        return st.version >= at + 6 || st.phase === 'over';
      },
      'the bots play on',
      15_000,
    );
    await leaveAll([back]);
  });
});

test("the table's alarms are deadlines: a tick runs what is due by the deadline reached, whatever the clock says", () => {
  let now = 1_000;
  let empty = true;
  const seen: string[] = [];
  let msToFlag: number | null = 5_000;
  const alarms = new Alarms({
    now: () => now,
    msToFlag: () => msToFlag,
    flag: () => seen.push('flag'),
    empty: () => empty,
    idleSeconds: () => 10,
    expire: () => seen.push('expire'),
  });
  expect(alarms.next).toBeNull();
  alarms.scheduleFlag();
  alarms.armIdle();
  expect(alarms.next).toBe(6_001);
  expect(alarms.tick(6_000)).toBe(6_001); // not yet
  expect(alarms.tick(6_001)).toBe(2_000); // the flag is checked; again a second later until a publication sets it
  expect(seen).toEqual(['flag']);
  msToFlag = null;
  alarms.scheduleFlag(); // the check's publication: no clock runs
  expect(alarms.next).toBe(11_000);
  empty = false;
  expect(alarms.tick(11_000)).toBeNull(); // somebody is here: no expiry
  empty = true;
  now = 20_000;
  alarms.armIdle();
  expect(alarms.tick(30_000)).toBeNull();
  expect(seen).toEqual(['flag', 'expire']);
  alarms.armIdle();
  alarms.clearAll();
  expect(alarms.next).toBeNull();
});
