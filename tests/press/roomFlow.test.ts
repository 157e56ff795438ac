/**
 * The press driven the way the room drives it: the room's own `Game` (no Colyseus) plays seeded
 * random games, and each call's entries (`Applied`: with effects and the position after) go to
 * `press.afterEntries(before, entries, now)`. Bare entries (no position) are replayed instead.
 */
import { parseRules, pieces, randomTurn, seatsOf, type Colour } from '@djambi/shared';
import { Game, type Entry } from '../../server/src/match/game.js';
import { Press, type PressEntry, type PressReveal } from '../../server/src/press/index.js';
import { Inbox, counterIds, findTurn, ok, position, seeded } from './helpers.js';

// The room's Entry (and so its Applied) is a PressEntry.
const fits = (e: Entry): PressEntry => e;
/** An entry without what `Applied` adds: `afterEntries` must replay it. */
const bare = ({ index, kind, colour, turn, text, move }: Entry): Entry => ({ index, kind, colour, turn, text, move });

let betrayalsSeen = 0;
afterAll(() => expect(betrayalsSeen).toBeGreaterThan(0)); // the random games do exercise betrayals

describe('room flow', () => {
  test('a betrayal through Game.play and afterEntries', () => {
    const pos = position('Rc a9, Bc i9, Yc i1, Gc a1, Rm e2, Bm e3, Bm h5');
    const game = new Game(pos.rules);
    game.position = pos;
    const press = new Press({ seats: ['R', 'B', 'Y', 'G'], newId: counterIds() });
    const inbox = new Inbox();
    press.start(pos);
    ok(press, inbox, 'R', 'pact_propose', { with: ['B'] }, 0);
    ok(press, inbox, 'B', 'pact_accept', { pact: 'p1' }, 0);
    inbox.clear();
    const t = findTurn(pos, (fx, turn) => 'from' in turn && turn.from === 'e2' && fx.some((e) => e.type === 'kill' && pieces(pos)[e.piece].colour === 'B'));
    const before = game.position;
    const entries = game.play('R', t.turn, 1);
    if (!entries.ok) throw new Error(entries.error.message);
    inbox.take(press.afterEntries(before, entries.value.map(fits), 1));
    expect(inbox.of('B').filter((m) => m.type === 'betrayal')).toMatchObject([
      { payload: { betrayal: { traitor: 'R', victim: 'B', ply: 0, turnText: entries.value[0].text } } },
    ]);
    expect(press.roster.ply).toBe(game.position.ply);
  });

  test.each([1, 2, 3, 4, 5, 6])('seed %i: a whole random game with pacts, chat, a resignation and the reveal', (seed) => {
    const random = seeded(seed);
    const rules = parseRules({ players: ([4, 3, 2] as const)[seed % 3] });
    if (!rules.ok) throw new Error(rules.error.message);
    const seats = seatsOf(rules.value);
    const game = new Game(rules.value);
    const press = new Press({ seats, newId: counterIds(), press_visibility: seed % 2 ? 'existence' : 'hidden' });
    const inbox = new Inbox();
    press.addSpectator('spec');
    press.start(game.position);
    let now = 0;
    // Every pair of seats in a pact, and everyone in one announced pact.
    for (const a of seats) {
      for (const b of seats) {
        if (a >= b) continue;
        const d = ok(press, inbox, a, 'pact_propose', { with: [b] }, (now += 5000));
        ok(press, inbox, b, 'pact_accept', { pact: (d[0].payload as { pact: { id: string } }).pact.id }, now);
      }
    }
    if (seats.length > 2) {
      const d = ok(press, inbox, seats[0], 'pact_propose', { with: seats.slice(1), announce: true }, (now += 5000));
      for (const c of seats.slice(1)) ok(press, inbox, c, 'pact_accept', { pact: (d[0].payload as { pact: { id: string } }).pact.id }, now);
    }
    const movers = new Map<number, Colour>();
    let resigned = false;
    for (let i = 0; i < 400 && !game.over; i++) {
      now += 2000;
      const mover = game.position.toMove!;
      ok(press, inbox, mover, 'press_send', { channel: 'table', text: `turn ${game.position.ply}` }, now);
      const before = game.position;
      let res: ReturnType<typeof game.play>;
      if (i === 60 && seats.length > 2 && !resigned) {
        resigned = true;
        res = game.resign(seats.find((c) => c !== mover && press.roster.isActive(c))!, now);
      } else {
        res = game.play(mover, randomTurn(game.position, random), now);
      }
      if (!res.ok) throw new Error(res.error.message);
      let ply = before.ply;
      for (const e of res.value) if (e.kind === 'turn' || e.kind === 'pass') movers.set(ply++, e.colour!);
      inbox.take(press.afterEntries(before, res.value, now));
      expect(press.roster.ply).toBe(game.position.ply);
      expect(press.roster.activeSeats()).toEqual(seats.filter((c) => press.roster.isActive(c)));
    }
    if (!game.over) {
      const active = press.roster.activeSeats();
      ok(press, inbox, active[0], 'draw_offer', {}, (now += 5000));
      let agreed = false;
      for (const c of active.slice(1)) {
        const r = press.handle(c, 'draw_accept', {}, now);
        if (!r.ok) throw new Error(r.error.code);
        inbox.take(r.deliveries);
        agreed = r.drawAgreed === true;
      }
      expect(agreed).toBe(true);
      const before = game.position;
      const res = game.agreeDraw(now);
      if (!res.ok) throw new Error(res.error.message);
      inbox.take(press.afterEntries(before, res.value, now));
    }
    const reveal = press.reveal() as PressReveal;
    expect(reveal).not.toBeNull();
    for (const m of [...seats, 'spec']) expect(inbox.types(m).filter((t) => t === 'press_reveal')).toHaveLength(1);
    // Betrayals: once per (pact, traitor, victim, turn), by the player who moved in that turn.
    const keys = reveal.betrayals.map((b) => `${b.pactId}|${b.traitor}|${b.victim}|${b.ply}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const b of reveal.betrayals) expect(movers.get(b.ply)).toBe(b.traitor);
    // The story is in move order.
    betrayalsSeen += reveal.betrayals.length;
    const plies = reveal.timeline.map((i) => i.ply);
    expect(plies).toEqual([...plies].sort((a, b) => a - b));
    expect(reveal.pacts.every((p) => p.status === 'ended')).toBe(true);
  });

  test('bare entries are replayed to the same deliveries as entries that carry their positions', () => {
    const random = seeded(42);
    const rules = parseRules({ players: 4 });
    if (!rules.ok) throw new Error(rules.error.message);
    const game = new Game(rules.value);
    const [carried, replayed] = [0, 1].map(() => new Press({ seats: seatsOf(rules.value), newId: counterIds() }));
    const sent: [string[], string[]] = [[], []];
    let now = 0;
    for (const press of [carried, replayed]) {
      press.start(game.position);
      for (const [a, b] of [
        ['R', 'B'],
        ['Y', 'G'],
        ['B', 'Y'],
      ] as const) {
        const d = press.handle(a, 'pact_propose', { with: [b] }, now);
        if (!d.ok) throw new Error(d.error.code);
        const id = (d.deliveries[0].payload as { pact: { id: string } }).pact.id;
        if (!press.handle(b, 'pact_accept', { pact: id }, now).ok) throw new Error('accept');
      }
    }
    for (let i = 0; i < 300 && !game.over; i++) {
      now += 1000;
      const before = game.position;
      const res = i === 150 ? game.resign(game.position.toMove!, now) : game.play(game.position.toMove!, randomTurn(game.position, random), now);
      if (!res.ok) throw new Error(res.error.message);
      sent[0].push(JSON.stringify(carried.afterEntries(before, res.value, now)));
      sent[1].push(JSON.stringify(replayed.afterEntries(before, res.value.map(bare), now)));
    }
    expect(sent[1]).toEqual(sent[0]);
    expect(sent[0].join('')).toContain('"betrayal"');
  });
});
