/**
 * Computer players in the product, through a real server and real colyseus.js clients: the
 * `bots` create option (and its refusals), `add_bot` / `remove_bot` before the start, a game of
 * one person and three bots to its end, games of four bots to their end with no intent of a bot
 * ever refused, and a bot game that survives a restart of its server with its bots.
 */
import { Match } from '../../server/src/match/match.js';
import { parseRoomConfig } from '../../server/src/match/config.js';
import { MemoryStore } from '../../server/src/store/memory.js';
import {
  createRoom,
  join,
  leaveAll,
  quietSdkWarnings,
  randomTurnFor,
  sdk,
  seeded,
  type State,
  serverForTests,
  startServer,
  type TestClient,
  roomOf,
  FAST_BOTS,
} from './helpers.js';
import { raw, rawPost } from './httpHelpers.js';

jest.setTimeout(60_000);
beforeAll(() => quietSdkWarnings());

function seatOf(state: State, colour: string): State {
  return state.seats.get(colour);
}

/** The human plays random legal turns whenever it is to move, until the game is over. */
async function playHuman(human: TestClient, seed: number, timeoutMs = 50_000): Promise<number> {
  const random = seeded(seed);
  const colour = human.seat?.colour;
  let turns = 0;
  const deadline = Date.now() + timeoutMs;
  while (human.state.phase !== 'over') {
    if (Date.now() > deadline) throw new Error('the game did not end in time');
    await human.waitState((s) => s.phase === 'over' || s.toMove === colour, 'the human to move or the end', timeoutMs);
    if (human.state.phase === 'over') break;
    const version = human.state.version as number;
    const rejected = human.received('rejected').length;
    human.room.send('turn', { ...randomTurnFor(human.state, random), version });
    await human.waitState((s) => s.version > version || human.received('rejected').length > rejected, 'the turn accepted');
    expect(human.received('rejected').slice(rejected)).toEqual([]);
    turns++;
  }
  return turns;
}

describe('bot seats in the match (no server)', () => {
  function newMatch(): Match {
    const parsed = parseRoomConfig({ rules: { players: 4 } }, { graceSeconds: 20, idleSeconds: 600 });
    if (!parsed.ok) throw new Error(parsed.message);
    return new Match(parsed.value);
  }

  test('a bot is never the creator nor the host, and the host passes over bots; restore rebuilds every bot seat', () => {
    const m = newMatch();
    expect(m.apply({ type: 'add_bot', colour: null, target: 'B', level: 'hard', atCreation: true }, 1).ok).toBe(true);
    expect(m.apply({ type: 'take_seat', name: 'a' }, 2).ok).toBe(true);
    expect(m.seats.hostColour()).toBe('R');
    expect(m.apply({ type: 'add_bot', colour: null, target: 'Y', level: 'easy', atCreation: true }, 3)).toMatchObject({
      ok: false,
      rejection: { code: 'already_started' },
    });
    expect(m.apply({ type: 'add_bot', colour: 'R', target: 'Y', level: 'easy' }, 3).ok).toBe(true);
    expect(m.apply({ type: 'take_seat', name: 'b' }, 4).ok).toBe(true);
    expect(m.seats.get('G')?.keyHash).not.toBeNull();
    expect(m.apply({ type: 'start', colour: null, auto: true }, 5)).toMatchObject({ ok: false, rejection: { code: 'not_seated' } });
    m.seats.passHost('R');
    expect(m.seats.hostColour()).toBe('G');
    const restored = Match.restore(m.config, m.events);
    expect([...restored.seats.seats.values()].map((s) => s.bot)).toEqual([null, 'hard', 'easy', null]);
    expect(restored.seats.get('B')?.ready).toBe(true);
  });
});

describe('create options and lobby', () => {
  const server = serverForTests({ rooms: { bots: FAST_BOTS } });

  test.each([
    [{ bots: { B: 'expert' } }],
    [{ bots: { X: 'easy' } }],
    [{ bots: ['easy'] }],
    [{ bots: 'easy' }],
    [{ autostart: 'yes' }],
    [{ rules: { players: 3 }, bots: { G: 'easy' } }],
  ])('bad bots option %j: bad_options, no room', async (options) => {
    await expect(sdk(server()).create('djambi', options)).rejects.toThrow(/bad_options/);
    const res = await rawPost(server(), '/api/rooms', options);
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('bad_options');
  });

  test('bots are seated at creation with presence bot, always ready, in the listing too; people get the other seats', async () => {
    const creator = await createRoom(server(), { bots: { B: 'easy', G: 'hard' }, name: 'host' });
    const code = creator.state.code as string;
    expect(creator.seat?.colour).toBe('R');
    await creator.waitState((s) => seatOf(s, 'B').presence === 'bot' && seatOf(s, 'G').presence === 'bot', 'bot presence');
    expect(seatOf(creator.state, 'B').name).toBe('Blue (bot, easy)');
    expect(seatOf(creator.state, 'G').name).toBe('Green (bot, hard)');
    expect(seatOf(creator.state, 'B').ready).toBe(true);
    const other = await join(server(), code, { name: 'guest' });
    expect(other.seat?.colour).toBe('Y');
    const listing = await raw(server(), `/api/rooms/${code}`);
    expect(listing.json.seats.map((s: { presence: string }) => s.presence)).toEqual(['connected', 'bot', 'connected', 'bot']);
    await leaveAll([creator, other]);
  });

  test('"Play against the computer": autostart starts the game when the host takes the last free seat', async () => {
    const res = await rawPost(server(), '/api/rooms', { bots: { B: 'easy', Y: 'easy', G: 'easy' }, autostart: true });
    expect(res.status).toBe(201);
    const human = await join(server(), res.json.code, { name: 'me', hostToken: res.json.hostToken });
    await human.waitState((s) => s.phase === 'playing', 'started by itself');
    expect(human.seat?.colour).toBe('R');
    expect(human.received('rejected')).toEqual([]);
    await leaveAll([human]);
  });

  test('add_bot / remove_bot: the host only, free seats only, before the start; every refusal has its code', async () => {
    const host = await createRoom(server(), { rules: { players: 3 }, name: 'host' });
    const code = host.state.code as string;
    const guest = await join(server(), code, { name: 'guest' });
    const watcher = await join(server(), code, { spectate: true });
    const guestColour = guest.seat!.colour;
    const free = ['R', 'B', 'Y'].find((c) => c !== host.seat!.colour && c !== guestColour)!;

    expect((await guest.sendExpectRejected('add_bot', { colour: free, level: 'easy' })).code).toBe('not_host');
    expect((await watcher.sendExpectRejected('add_bot', { colour: free, level: 'easy' })).code).toBe('not_seated');
    expect((await host.sendExpectRejected('add_bot', { colour: free, level: 'expert' })).code).toBe('bad_payload');
    expect((await host.sendExpectRejected('add_bot', { colour: free })).code).toBe('bad_payload');
    expect((await host.sendExpectRejected('add_bot', { colour: 'G', level: 'easy' })).code).toBe('seat_taken');
    expect((await host.sendExpectRejected('add_bot', { colour: guestColour, level: 'easy' })).code).toBe('seat_taken');
    expect((await host.sendExpectRejected('remove_bot', { colour: guestColour })).code).toBe('not_a_bot');
    expect((await host.sendExpectRejected('remove_bot', { colour: free })).code).toBe('not_a_bot');

    host.room.send('add_bot', { colour: free, level: 'normal' });
    await watcher.waitState((s) => seatOf(s, free).presence === 'bot' && seatOf(s, free).name.includes('bot, normal'), 'bot added');
    expect((await guest.sendExpectRejected('remove_bot', { colour: free })).code).toBe('not_host');
    host.room.send('remove_bot', { colour: free });
    await watcher.waitState((s) => seatOf(s, free).presence === 'empty' && !seatOf(s, free).taken, 'bot removed');
    host.room.send('add_bot', { colour: free, level: 'easy' });
    await watcher.waitState((s) => seatOf(s, free).presence === 'bot', 'bot added again');
    host.room.send('start');
    await watcher.waitState((s) => s.phase === 'playing', 'started');
    expect((await host.sendExpectRejected('remove_bot', { colour: free })).code).toBe('already_started');
    expect((await host.sendExpectRejected('add_bot', { colour: free, level: 'easy' })).code).toBe('already_started');
    await leaveAll([host, guest, watcher]);
  });
});

describe('games with bots', () => {
  const server = serverForTests({ rooms: { bots: FAST_BOTS } });

  test('one person and three bots (easy, normal, hard) play to the end; no bot intent is refused', async () => {
    const human = await createRoom(server(), { bots: { B: 'easy', Y: 'normal', G: 'hard' }, name: 'human' });
    const code = human.state.code as string;
    human.room.send('start');
    await human.waitState((s) => s.phase === 'playing', 'started');
    await playHuman(human, 12);
    const room = roomOf(code);
    expect(room.match.phase).toBe('over');
    expect(room.bots?.stats.codes).toEqual([]);
    expect(room.bots?.stats.turns).toBeGreaterThan(0);
    await leaveAll([human]);
  });

  test('bots answer a pact proposal and a draw offer through press intents', async () => {
    const human = await createRoom(server(), { bots: { B: 'normal', Y: 'normal', G: 'normal' }, name: 'human' });
    const code = human.state.code as string;
    human.room.send('start');
    await human.waitState((s) => s.phase === 'playing', 'started');
    human.room.send('pact_propose', { with: ['B'], rounds: 3 });
    await human.waitMessage('pact');
    const answered = () => human.received('pact').some((m) => m.event === 'accepted' || m.event === 'declined' || m.event === 'in_force');
    await human.waitState(answered, 'the bot answered the pact');
    human.room.send('draw_offer');
    await human.waitState(
      () => human.received('draw').some((m) => m.event === 'declined' || m.event === 'accepted' || m.event === 'passed'),
      'the bots answered the draw',
    );
    const room = roomOf(code);
    expect(room.bots?.stats.press).toBeGreaterThanOrEqual(2);
    expect(room.bots?.stats.codes).toEqual([]);
    expect(human.received('rejected')).toEqual([]);
    await leaveAll([human]);
  });

  test('four bots play several games to their end, started at creation; no bot intent is ever refused', async () => {
    const codes: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await rawPost(server(), '/api/rooms', { bots: { R: 'easy', B: 'easy', Y: 'easy', G: 'easy' } });
      expect(res.status).toBe(201);
      codes.push(res.json.code);
    }
    const watchers = await Promise.all(codes.map((code) => join(server(), code, { spectate: true })));
    await Promise.all(watchers.map((w) => w.waitState((s) => s.phase === 'over', 'bot game over', 50_000)));
    for (const code of codes) {
      const room = roomOf(code);
      expect(room.match.game.over).toBe(true);
      expect(room.bots?.stats.codes).toEqual([]);
      expect(room.bots?.stats.codes).toEqual([]);
    }
    await leaveAll(watchers);
  });
});

test('a bot game survives a restart of its server with its bots, and then plays to the end', async () => {
  const store = new MemoryStore();
  const first = await startServer({ store, rooms: { bots: FAST_BOTS } });
  const human = await createRoom(first, { rules: { players: 3 }, bots: { B: 'normal', Y: 'easy' }, name: 'human' });
  const code = human.state.code as string;
  const key = human.seat!.seatKey;
  human.room.send('start');
  await human.waitState((s) => s.phase === 'playing', 'started');
  const random = seeded(3);
  // The human plays twice; the bots answer each time.
  for (let i = 0; i < 2; i++) {
    await human.waitState((s) => s.toMove === 'R', 'human to move', 10_000);
    const version = human.state.version as number;
    human.room.send('turn', { ...randomTurnFor(human.state, random), version });
    await human.waitState((s) => s.version > version, 'turn accepted');
  }
  await human.waitState((s) => s.toMove === 'R', 'bots answered', 10_000);
  const before = human.state.version as number;
  await first.close();

  const second = await startServer({ store, rooms: { bots: FAST_BOTS } });
  try {
    expect(second.restored.restored).toBe(1);
    const room = roomOf(code);
    expect(room.match.seats.get('B')?.bot).toBe('normal');
    expect(room.match.seats.get('Y')?.bot).toBe('easy');
    const back = await join(second, code, { seatKey: key });
    expect(back.state.version).toBe(before);
    expect(seatOf(back.state, 'B').presence).toBe('bot');
    expect(seatOf(back.state, 'Y').presence).toBe('bot');
    await playHuman(back, 4);
    expect(room.bots?.stats.codes).toEqual([]);
    await leaveAll([back]);
  } finally {
    await second.close();
  }
});

test('stand-in: a bot plays for a player who dropped, the record marks its turns, and the player takes the seat back by reconnecting', async () => {
  const server = await startServer({ rooms: { bots: { ...FAST_BOTS, standInMs: 0 } } });
  try {
    const a = await createRoom(server, { rules: { players: 2 }, name: 'a' });
    const code = a.state.code as string;
    const b = await join(server, code, { name: 'b' });
    const watcher = await join(server, code, { spectate: true });
    a.room.send('start');
    await watcher.waitState((s) => s.phase === 'playing', 'started');
    const room = roomOf(code);
    const [mover, other] = a.state.toMove === a.seat!.colour ? [a, b] : [b, a];
    const away = other.seat!;
    // The player not to move drops; the mover plays; the bot answers for the absent player.
    other.room.connection.close();
    await watcher.waitState((s) => s.seats.get(away.colour).presence !== 'connected', 'dropped');
    const random = seeded(9);
    let version = watcher.state.version as number;
    mover.room.send('turn', { ...randomTurnFor(mover.state, random), version });
    await watcher.waitState((s) => s.version > version && s.toMove === mover.seat!.colour, 'the stand-in answered', 10_000);
    const standIns = room.match.events.filter((e) => e.intent.type === 'turn' && e.intent.standIn === true);
    expect(standIns.length).toBeGreaterThan(0);
    expect(standIns.every((e) => e.intent.type === 'turn' && e.intent.colour === away.colour)).toBe(true);
    expect(room.bots?.stats.standIns).toBeGreaterThan(0);
    // Everyone sees that a bot is standing in for the absent player.
    expect(watcher.state.seats.get(away.colour).standIn).toBe(true);
    expect(watcher.state.seats.get(mover.seat!.colour).standIn).toBe(false);

    // Back with the seat key, between two turns: the player plays its own turns again.
    const back = await join(server, code, { seatKey: away.seatKey });
    await watcher.waitState((s) => s.seats.get(away.colour).presence === 'connected', 'back');
    expect(watcher.state.seats.get(away.colour).standIn).toBe(false);
    const before = room.bots?.stats.standIns ?? 0;
    version = watcher.state.version as number;
    mover.room.send('turn', { ...randomTurnFor(mover.state, random), version });
    await back.waitState((s) => s.phase === 'over' || s.toMove === away.colour, 'the returned player to move', 10_000);
    if (back.state.phase !== 'over') {
      version = back.state.version as number;
      back.room.send('turn', { ...randomTurnFor(back.state, random), version });
      await watcher.waitState((s) => s.version > version, 'its own turn');
      const last = room.match.events.filter((e) => e.intent.type === 'turn').at(-1);
      expect(last?.intent.type === 'turn' && last.intent.standIn).toBeFalsy();
    }
    expect(room.bots?.stats.standIns).toBe(before);
    expect(room.bots?.stats.codes).toEqual([]);
    await leaveAll([mover, back, watcher]);
  } finally {
    await server.close();
  }
});
