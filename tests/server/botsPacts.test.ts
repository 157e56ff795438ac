/**
 * Bots and pacts: the personality in the `bots` create option (checked by the shared schema,
 * kept secret from the other players, stored with the game), a bot's own pact plans
 * (`Negotiator`: propose, leave openly after two bad evaluations, remember betrayals), the
 * worker's pact valuations, a cautious bot leaving a pact openly in a real game (its valuations
 * scripted by a pool subclass), games of bots through the real server where every press intent
 * of a bot is accepted, no honest bot ever betrays, and a bot that leaves a pact does not harm
 * its former partner with the turn it plays right after leaving; and `autostart` / `stand_in`
 * across a restart.
 */
import { type Colour, hostileActs, initialPosition, legalTurns, type PactView, playTurn, type Position } from '@djambi/shared';
import { BotPool } from '../../server/src/bots/pool.js';
import { drawPersonality, Negotiator, type PactDecision, pactValue, PERSONALITY_WEIGHTS } from '../../server/src/bots/pact.js';
import type { RunningServer } from '../../server/src/app.js';
import { Match } from '../../server/src/match/match.js';
import { MemoryStore } from '../../server/src/store/memory.js';
import { chiefKill } from '../bots/positions.js';
import {
  createRoom,
  join,
  leaveAll,
  positionOf,
  quietSdkWarnings,
  randomTurnFor,
  sdk,
  seeded,
  serverForTests,
  startServer,
  type TestClient,
  roomOf,
  FAST_BOTS,
} from './helpers.js';
import { rawPost } from './httpHelpers.js';

jest.setTimeout(240_000);
beforeAll(() => quietSdkWarnings());

/**
 * The bound on waiting for a bot's move (or anything a bot's search precedes): the test waits
 * for the patch or message that shows it, for as long as a loaded machine needs; the bound only
 * turns a hang into a failure.
 */
const BOT_MOVE_MS = 60_000;

/** A pact in force between `members`, as its members see it. */
function inForce(id: string, members: PactView['members']): PactView {
  return {
    id,
    proposer: members[0],
    members,
    rounds: null,
    announced: false,
    status: 'in_force',
    accepted: members,
    standing: members,
    turnsLeft: null,
    roundsLeft: null,
    broken: false,
    proposedPly: 0,
    inForcePly: 0,
    endedPly: null,
    endReason: null,
  };
}

describe('Negotiator (no server)', () => {
  test('a cautious bot leaves a pact openly after two evaluations at −1 or below; loyal and treacherous bots never leave', () => {
    const pos = chiefKill();
    const pacts = [inForce('p1', ['R', 'B'])];
    // Red can kill Blue's chief: a pact with Blue costs Red.
    expect(pactValue(pos, 'R', ['B'])).toBeLessThanOrEqual(-1);
    const cautious = new Negotiator('R', 'cautious', true);
    const ask = cautious.ask(pos, pacts, []);
    expect(ask.watch).toEqual([{ id: 'p1', partners: ['B'] }]);
    const values = Negotiator.groups(ask).map((g) => pactValue(pos, 'R', g));
    expect(cautious.plan(pos, ask, values).leave).toEqual([]);
    expect(cautious.plan(pos, ask, values).leave).toEqual([{ id: 'p1', partners: ['B'] }]);
    // Not valued in time: nothing is done.
    expect(cautious.plan(pos, ask, null)).toEqual({ leave: [], propose: null });
    for (const personality of ['loyal', 'treacherous'] as const) {
      const other = new Negotiator('R', personality, true);
      expect(other.ask(pos, pacts, []).watch).toEqual([]);
    }
  });

  test('proposals: the best value above the threshold, never to a betrayer, one open proposal, a cool-down after each', () => {
    const pos = initialPosition();
    const n = new Negotiator('R', 'loyal', true);
    const ask = n.ask(pos, [], []);
    expect(ask.candidates).toEqual(['B', 'Y', 'G']);
    expect(n.plan(pos, ask, [0.2, 0.9, 0.7]).propose).toEqual({ with: ['Y'], rounds: 3, announce: false });
    // Cooling down: nobody is valued again this round.
    expect(n.ask(pos, [], []).candidates).toEqual([]);
    const fresh = new Negotiator('R', 'cautious', true);
    expect(fresh.ask(pos, [], [{ traitor: 'G', victim: 'R' }]).candidates).toEqual(['B', 'Y']);
    expect(fresh.ask(pos, [{ ...inForce('p2', ['R', 'B']), status: 'proposed', accepted: ['R'], standing: [] }], []).candidates).toEqual([]);
    // Nobody worth a pact: no proposal.
    expect(fresh.plan(pos, fresh.ask(pos, [], []), [0, 0.1, -2]).propose).toBeNull();
    // Easy bots answer proposals but make none; a bot that is not to move makes none.
    expect(new Negotiator('R', 'loyal', false).ask(pos, [], []).candidates).toEqual([]);
    expect(new Negotiator('B', 'loyal', true).ask(pos, [], []).candidates).toEqual([]);
  });

  test('a betrayal of the bot is remembered once per traitor, at the table', () => {
    const n = new Negotiator('B', 'loyal', true);
    expect(n.remember([{ traitor: 'R', victim: 'Y' }])).toBeNull();
    expect(n.remember([{ traitor: 'R', victim: 'B' }])).toBe("Blue will remember Red's betrayal");
    expect(n.remember([{ traitor: 'R', victim: 'B' }])).toBeNull();
  });

  test('personalities: drawn from the seed (the same seed, the same one), each with its search weights', () => {
    const drawn = Array.from({ length: 40 }, (_, i) => drawPersonality(i, 'B'));
    expect(new Set(drawn)).toEqual(new Set(['loyal', 'cautious', 'treacherous']));
    expect(drawPersonality(7, 'Y')).toBe(drawPersonality(7, 'Y'));
    expect(PERSONALITY_WEIGHTS.treacherous.treacherous).toBe(true);
    expect(PERSONALITY_WEIGHTS.loyal.treacherous).toBeUndefined();
  });

  test('the worker values pacts and answers proposals like the functions it runs', async () => {
    // A long grace: on a loaded machine the answer still comes from the worker, not the deadline.
    const pool = new BotPool({ graceMs: 10_000 });
    try {
      await pool.ready();
      const pos: Position = chiefKill();
      const values = await pool.valuePacts(pos, 'R', [['B'], ['Y']], []);
      expect(values).toEqual([pactValue(pos, 'R', ['B']), pactValue(pos, 'R', ['Y'])]);
      const answer = await pool.answerPact(pos, 'R', { proposer: 'B', members: ['R', 'B'], rounds: 3 }, [], {});
      expect(answer).toMatchObject({ accept: false });
      expect(await pool.valuePacts(pos, 'R', [], [])).toBeNull();
    } finally {
      await pool.close();
    }
  });
});

describe('the personality create option', () => {
  const server = serverForTests({ rooms: { bots: FAST_BOTS } });

  test.each([
    [{ bots: { B: { level: 'hard', personality: 'evil' } } }],
    [{ bots: { B: { personality: 'loyal' } } }],
    [{ bots: { B: { level: 'hard', mood: 'calm' } } }],
    [{ bots: { B: {} } }],
    [{ bots: { B: ['hard'] } }],
    [{ bots: { B: { level: 'expert', personality: 'loyal' } } }],
  ])('bad bots option %j: bad_options, no room', async (options) => {
    await expect(sdk(server()).create('djambi', options)).rejects.toThrow(/bad_options/);
    const res = await rawPost(server(), '/api/rooms', options);
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('bad_options');
  });

  test('the extended form is accepted beside the short one; the personality is the bot’s secret, stored with the game', async () => {
    const human = await createRoom(server(), { bots: { B: { level: 'hard', personality: 'treacherous' }, Y: 'easy', G: { level: 'normal' } }, name: 'me' });
    const code = human.state.code as string;
    await human.waitState((s) => s.seats.get('G').presence === 'bot', 'bots seated');
    const room = roomOf(code);
    expect([...room.match.seats.seats.values()].map((s) => s.bot)).toEqual([null, 'hard', 'easy', 'normal']);
    expect(room.bots?.personalityOf('B')).toBe('treacherous');
    expect(room.match.config.bots?.personalities.B).toBe('treacherous');
    expect(['loyal', 'cautious', 'treacherous']).toContain(room.match.config.bots?.personalities.G);
    expect(human.state.seats.get('B').name).toBe('Blue (bot, hard)');
    // Nothing a player receives names a personality.
    expect(JSON.stringify(human.state.toJSON())).not.toMatch(/loyal|cautious|treacherous/);
    await leaveAll([human]);
  });
});

describe('bot games with pacts through the real server', () => {
  const server = serverForTests({ rooms: { bots: FAST_BOTS } });

  test('four normal bots of every personality: they propose, answer and leave pacts by press intents only, all accepted; only a treacherous bot betrays', async () => {
    const personalities = [
      { R: 'cautious', B: 'cautious', Y: 'loyal', G: 'treacherous' },
      { R: 'loyal', B: 'cautious', Y: 'cautious', G: 'cautious' },
    ] as const;
    const codes: string[] = [];
    for (const p of personalities) {
      const bots = Object.fromEntries(Object.entries(p).map(([c, personality]) => [c, { level: 'normal', personality }]));
      // Peaceful bots can shuffle for ever: a short no-progress limit ends the game as a draw.
      const res = await rawPost(server(), '/api/rooms', { bots, rules: { no_progress_rounds: 12 } });
      expect(res.status).toBe(201);
      codes.push(res.json.code);
    }
    const watchers = await Promise.all(codes.map((code) => join(server(), code, { spectate: true })));
    // To the end, or 300 plies (some peaceful games go round in circles: progress is not the point here).
    await Promise.all(watchers.map((w) => w.waitState((s) => s.phase === 'over' || s.version >= 300, 'bot game over or long', 3 * BOT_MOVE_MS)));
    await leaveAll(watchers);
    let proposals = 0;
    for (const [i, code] of codes.entries()) {
      const room = roomOf(code);
      await room.disconnect();
      expect(room.bots?.stats.codes).toEqual([]);
      proposals += room.bots?.stats.proposals ?? 0;
      const events = room.match.events;
      // Betrayals only by the treacherous seat.
      for (const b of room.match.press.pacts.allBetrayals()) expect((personalities[i] as Partial<Record<Colour, string>>)[b.traitor]).toBe('treacherous');
      // A bot that left a pact does not harm its former partners with the turn right after.
      for (const [k, e] of events.entries()) {
        if (e.intent.type !== 'press' || e.intent.message !== 'pact_leave') continue;
        const leaver = e.intent.member;
        const partners = partnersLeft(room.match, k);
        const next = events.findIndex((f, j) => j > k && f.intent.type === 'turn' && f.intent.colour === leaver);
        if (next < 0) continue;
        const before = Match.restore(room.match.config, events.slice(0, next)).position;
        const turn = events[next].intent;
        if (turn.type !== 'turn') continue;
        const played = playTurn(before, turn.turn);
        expect(played.ok).toBe(true);
        if (played.ok && turn.colour) for (const q of partners) expect(hostileActs(before, played.value.effects, turn.colour).has(q)).toBe(false);
      }
    }
    expect(proposals).toBeGreaterThan(0);
  });
});

/** The partners a `pact_leave` at event `k` left (the pact's standing members before it, without the leaver). */
function partnersLeft(match: Match, k: number): Colour[] {
  const intent = match.events[k].intent;
  if (intent.type !== 'press') return [];
  const before = Match.restore(match.config, match.events.slice(0, k));
  const id = (intent.payload as { pact: string }).pact;
  const pact = before.press.pacts.allViews().find((p) => p.id === id);
  return pact ? pact.standing.filter((c) => c !== intent.member) : [];
}

/**
 * A pool whose pact valuations say every pact costs 5 militants and whose bots accept every
 * proposal: the driver's wiring (accept, value, leave openly, spare the partner that turn) then
 * shows in a few turns of a real game. Turns still come from the real worker.
 */
class CostlyPacts extends BotPool {
  override valuePacts(_p: Position, _me: Colour, groups: readonly (readonly Colour[])[]): Promise<number[] | null> {
    return Promise.resolve(groups.map(() => -5));
  }
  override answerPact(): Promise<PactDecision | null> {
    return Promise.resolve({ accept: true, reason: 'helps', gain: 1 });
  }
}

describe('leaving a pact openly, through the real server', () => {
  const pool = new CostlyPacts();
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ rooms: { bots: { ...FAST_BOTS, pool } } });
  });
  afterAll(async () => {
    await server.close();
    await pool.close();
  });

  /** Red (a person) plays turns that never harm Blue, until `done` or Blue has played `blueTurns` turns. */
  async function playAlong(human: TestClient, done: () => boolean, blueTurns: number): Promise<void> {
    const random = seeded(17);
    const room = roomOf(human.state.code as string);
    const blue = () => room.match.events.filter((e) => e.intent.type === 'turn' && e.intent.colour === 'B').length;
    const start = blue();
    while (!done() && blue() - start < blueTurns && human.state.phase === 'playing') {
      await human.waitState((s) => s.phase !== 'playing' || s.toMove === 'R', 'Red to move', BOT_MOVE_MS);
      if (done() || human.state.phase !== 'playing') break;
      const pos = positionOf(human.state);
      const turns = legalTurns(pos).filter((t) => {
        const r = playTurn(pos, t);
        return r.ok && !hostileActs(pos, r.value.effects, 'R').has('B');
      });
      const version = human.state.version as number;
      human.room.send('turn', { ...turns[Math.floor(random() * turns.length)], version });
      await human.waitState((s) => s.version > version, 'Red’s turn accepted', BOT_MOVE_MS);
    }
  }

  test('a cautious bot accepts, values the pact before its turns, leaves it openly on the second bad value with a table line, and spares its partner that turn', async () => {
    const human = await createRoom(server, { bots: { B: { level: 'normal', personality: 'cautious' }, Y: 'easy', G: 'easy' }, name: 'red' });
    const room = roomOf(human.state.code as string);
    human.room.send('start');
    await human.waitState((s) => s.phase === 'playing', 'started');
    human.room.send('pact_propose', { with: ['B'] });
    await human.waitState(() => human.received('pact').some((m) => m.event === 'in_force'), 'Blue accepted', BOT_MOVE_MS);
    const left = () => human.received('pact').some((m) => m.event === 'left' && m.by === 'B');
    await playAlong(human, left, 4);
    await human.waitState(left, 'Blue left the pact', BOT_MOVE_MS);
    expect(room.bots?.stats.leaves).toBe(1);
    const events = room.match.events;
    const k = events.findIndex((e) => e.intent.type === 'press' && e.intent.message === 'pact_leave');
    expect(k).toBeGreaterThan(0);
    // Two of Blue's turns came between the pact's start and its leaving: valued twice, then left.
    const inForce = events.findIndex((e) => e.intent.type === 'press' && e.intent.message === 'pact_accept');
    expect(events.slice(inForce, k).filter((e) => e.intent.type === 'turn' && e.intent.colour === 'B').length).toBe(1);
    const said = events
      .filter((e) => e.intent.type === 'press' && e.intent.message === 'press_send')
      .map((e) => (e.intent.type === 'press' ? e.intent.payload : null));
    expect(said).toContainEqual({ channel: 'table', text: 'Blue leaves the pact with Red' });
    // No betrayal: leaving first is never one; and the turn Blue played right after spares Red.
    expect(room.match.press.pacts.allBetrayals()).toEqual([]);
    await human.waitState(
      (s) => s.phase !== 'playing' || room.match.events.slice(k).some((e) => e.intent.type === 'turn' && e.intent.colour === 'B'),
      'Blue’s next turn',
      BOT_MOVE_MS,
    );
    const next = room.match.events.findIndex((e, j) => j > k && e.intent.type === 'turn' && e.intent.colour === 'B');
    if (next > 0) {
      const before = Match.restore(room.match.config, room.match.events.slice(0, next)).position;
      const turn = room.match.events[next].intent;
      const played = turn.type === 'turn' ? playTurn(before, turn.turn) : null;
      expect(played?.ok).toBe(true);
      if (played?.ok) expect(hostileActs(before, played.value.effects, 'B').has('R')).toBe(false);
    }
    expect(room.bots?.stats.codes).toEqual([]);
    expect(human.received('rejected')).toEqual([]);
    await leaveAll([human]);
  });

  test.each(['loyal', 'treacherous'] as const)(
    'a %s bot never leaves a pact openly (a loyal one keeps it; a treacherous one would break it instead)',
    async (personality) => {
      const human = await createRoom(server, { bots: { B: { level: 'normal', personality }, Y: 'easy', G: 'easy' }, name: 'red' });
      const room = roomOf(human.state.code as string);
      human.room.send('start');
      await human.waitState((s) => s.phase === 'playing', 'started');
      human.room.send('pact_propose', { with: ['B'] });
      await human.waitState(() => human.received('pact').some((m) => m.event === 'in_force'), 'Blue accepted', BOT_MOVE_MS);
      await playAlong(human, () => false, 3);
      expect(room.bots?.stats.leaves).toBe(0);
      expect(human.received('pact').some((m) => m.event === 'left')).toBe(false);
      expect(room.bots?.stats.codes).toEqual([]);
      await leaveAll([human]);
    },
  );
});

test('autostart and stand_in survive a restart before the start: the game starts by itself, and no bot stands in when stand_in is off', async () => {
  const store = new MemoryStore();
  const first = await startServer({ store, rooms: { bots: { ...FAST_BOTS, standInMs: 0 } } });
  const auto = await rawPost(first, '/api/rooms', { bots: { B: 'easy', Y: 'easy', G: 'easy' }, autostart: true });
  const noStandIn = await rawPost(first, '/api/rooms', { rules: { players: 2 }, stand_in: false });
  expect([auto.status, noStandIn.status]).toEqual([201, 201]);
  const a = await join(first, noStandIn.json.code, { name: 'a', hostToken: noStandIn.json.hostToken });
  const aKey = a.seat!.seatKey;
  await first.close();

  const second = await startServer({ store, rooms: { bots: { ...FAST_BOTS, standInMs: 0 } } });
  try {
    // Only the game somebody sat at comes back at boot; the other re-opens on its host's join.
    expect(second.restored.restored).toBe(1);
    // autostart: the host takes the last free seat and the game starts, with no "start" sent.
    const human = await join(second, auto.json.code, { name: 'me', hostToken: auto.json.hostToken });
    await human.waitState((s) => s.phase === 'playing', 'started by itself after the restart', BOT_MOVE_MS);
    expect(human.received('rejected')).toEqual([]);
    expect(roomOf(auto.json.code).match.config.bots).toMatchObject({ autostart: true, standIn: true });

    // stand_in off: a player who drops is not played for.
    const back = await join(second, noStandIn.json.code, { seatKey: aKey });
    const b = await join(second, noStandIn.json.code, { name: 'b' });
    const watcher = await join(second, noStandIn.json.code, { spectate: true });
    await watcher.waitState((s) => s.host !== '' && s.seats.get(s.host).presence === 'connected', 'a host present');
    (watcher.state.host === back.seat!.colour ? back : b).room.send('start');
    await watcher.waitState((s) => s.phase === 'playing', 'started');
    const room = roomOf(noStandIn.json.code);
    expect(room.match.config.bots?.standIn).toBe(false);
    const mover = watcher.state.toMove === back.seat!.colour ? back : b;
    const away = mover === back ? b : back;
    away.room.connection.close();
    await watcher.waitState((s) => s.seats.get(away.seat!.colour).presence !== 'connected', 'dropped');
    const version = watcher.state.version as number;
    mover.room.send('turn', { ...randomTurnFor(mover.state, seeded(5)), version });
    await watcher.waitState((s) => s.version > version, 'the turn');
    // A stand-in would answer at once (standInMs 0, no delay); give it a moment to (wrongly) do so.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(watcher.state.toMove).toBe(away.seat!.colour);
    expect(room.bots?.stats.standIns).toBe(0);
    await leaveAll([human, mover, watcher]);
  } finally {
    await second.close();
  }
});
