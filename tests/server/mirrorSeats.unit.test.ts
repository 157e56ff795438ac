/**
 * `mirror` skips the seats after a commit where neither the match's seats, their links nor the
 * stand-ins changed (most commits: a turn without a clock). These check that every kind of change
 * still reaches the seats' schema after turns were mirrored with the seats skipped, and that the
 * seat a connection holds, kept on the connection (`Connections.seatOf`), follows every change of
 * the links.
 */
import { type Colour, randomTurn } from '@djambi/shared';
import { Match } from '../../server/src/match/match.js';
import { Connections } from '../../server/src/rooms/connections.js';
import { CountedSet, mirror, type RoomModel } from '../../server/src/rooms/mirror.js';
import { parseRoomConfig } from '../../server/src/rooms/options.js';
import { DjambiState } from '../../server/src/rooms/schema.js';
import { seeded } from '../support/random.js';

const COLOURS: Colour[] = ['R', 'B', 'Y', 'G'];

function config(options: Record<string, unknown>) {
  const parsed = parseRoomConfig(options, { graceSeconds: 20, idleSeconds: 600 });
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value;
}

/** A started four-player game, its links (every seat connected), its state mirrored once. */
function table(options: Record<string, unknown> = {}) {
  const match = new Match(config(options));
  const links = new Connections(COLOURS);
  let now = 1_000;
  for (const colour of COLOURS) {
    const out = match.apply({ type: 'take_seat', colour, name: `P${colour}` }, now++);
    if (!out.ok || !out.seat) throw new Error('seat refused');
    links.connect(colour, `s${colour}`, out.seat.key, now);
  }
  if (!match.apply({ type: 'start', colour: 'R' }, now++).ok) throw new Error('start refused');
  const standIns = new CountedSet<Colour>();
  const state = new DjambiState();
  const model = (): RoomModel => ({ code: 'ABCDE', match, links, spectators: 0, standIns });
  mirror(model(), state);
  const random = seeded(3);
  const turn = (): void => {
    const colour = match.position.toMove!;
    const out = match.apply({ type: 'turn', colour, turn: randomTurn(match.position, random) }, now++);
    if (!out.ok) throw new Error(`turn refused: ${out.rejection.code}`);
    mirror(model(), state);
  };
  return { match, links, standIns, state, model, turn, now: () => now++ };
}

describe('mirror skips unchanged seats, and misses no change', () => {
  it('shows a link that changed between turns', () => {
    const t = table();
    t.turn();
    t.turn();
    expect(t.state.seats.get('B')!.presence).toBe('connected');
    t.links.dropped('sB', t.now());
    t.turn();
    expect(t.state.seats.get('B')!.presence).toBe('reconnecting');
    t.turn();
    t.links.away('sB', t.now());
    mirror(t.model(), t.state);
    expect(t.state.seats.get('B')!.presence).toBe('away');
    t.links.bot('Y', t.now());
    t.turn();
    expect(t.state.seats.get('Y')!.presence).toBe('bot');
  });

  it('shows a stand-in added or removed between turns', () => {
    const t = table();
    t.links.away('sG', t.now());
    t.turn();
    expect(t.state.seats.get('G')!.standIn).toBe(false);
    t.standIns.add('G');
    t.turn();
    expect(t.state.seats.get('G')!.standIn).toBe(true);
    t.standIns.delete('G');
    t.turn();
    expect(t.state.seats.get('G')!.standIn).toBe(false);
  });

  it('shows a resignation (the active players) and a seat change by an intent', () => {
    const t = table();
    t.turn();
    expect(t.state.seats.get('Y')!.active).toBe(true);
    expect(t.match.apply({ type: 'resign', colour: 'Y' }, t.now()).ok).toBe(true);
    mirror(t.model(), t.state);
    expect(t.state.seats.get('Y')!.active).toBe(false);
    const version = t.match.seatsVersion;
    t.turn();
    expect(t.match.seatsVersion).toBe(version);
  });

  it('still writes every seat on every commit with a clock (its remaining time changes each turn)', () => {
    const t = table({ clock: { initialSeconds: 60, incrementSeconds: 0 } });
    const before = t.state.seats.get('R')!.clockMs;
    t.turn();
    t.turn();
    expect(t.state.seats.get('R')!.clockMs).toBeLessThan(before);
  });
});

describe('Connections.seatOf', () => {
  it('follows connects, swaps, frees and reclaims', () => {
    const links = new Connections(COLOURS);
    const a = { sessionId: 'a' };
    const b = { sessionId: 'b' };
    expect(links.seatOf(a)).toBeNull();
    links.connect('R', 'a', 'k1', 1);
    expect(links.seatOf(a)).toBe('R');
    expect(links.seatOf(a)).toBe('R');
    links.connect('B', 'b', 'k2', 2);
    links.move([{ from: 'R', to: 'Y' }], 3);
    expect(links.seatOf(a)).toBe('Y');
    expect(links.seatOf(b)).toBe('B');
    links.move(
      [
        { from: 'Y', to: 'B' },
        { from: 'B', to: 'Y' },
      ],
      4,
    );
    expect(links.seatOf(a)).toBe('B');
    expect(links.seatOf(b)).toBe('Y');
    links.free('B', 5);
    expect(links.seatOf(a)).toBeNull();
    // A reclaim from another connection: the first one no longer holds the seat.
    links.connect('Y', 'c', 'k2', 6);
    expect(links.seatOf(b)).toBeNull();
    expect(links.seatOf({ sessionId: 'c' })).toBe('Y');
  });
});
