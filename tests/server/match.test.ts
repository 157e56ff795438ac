/**
 * The match without a server: intents in, events out. Every refused intent changes nothing; a
 * match restored from its events (also after a JSON round trip, as a log would store them) is
 * the same match to every participant.
 */
import { type Colour, REMATCH_SECONDS, randomTurn } from '@djambi/shared';
import { type Intent, Match, type MatchEvent, type Outcome } from '../../server/src/match/match.js';
import { offerPending } from '../../server/src/match/rematchVote.js';
import { snapshotOf } from '../../server/src/match/snapshot.js';
import { parseRoomConfig } from '../../server/src/match/config.js';
import { seeded } from '../support/random.js';

function config(options: Record<string, unknown>) {
  const parsed = parseRoomConfig(options, { graceSeconds: 20, idleSeconds: 600 });
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value;
}

function accepted(out: Outcome): asserts out is Extract<Outcome, { ok: true }> {
  if (!out.ok) throw new Error(`refused: ${out.rejection.code} ${out.rejection.message}`);
}

/** Applies an intent that must be refused with `code`, and checks that nothing changed. */
function refused(match: Match, intent: Intent, now: number, code: string): void {
  const before = JSON.stringify(snapshotOf(match));
  const events = match.events.length;
  const out = match.apply(intent, now);
  expect(out.ok ? 'accepted' : out.rejection.code).toBe(code);
  expect(match.events.length).toBe(events);
  expect(JSON.stringify(snapshotOf(match))).toBe(before);
}

function expectRestores(match: Match): void {
  const live = JSON.stringify(snapshotOf(match));
  expect(JSON.stringify(snapshotOf(Match.restore(match.config, match.events)))).toBe(live);
  const stored = JSON.parse(JSON.stringify(match.events)) as MatchEvent[];
  const restored = Match.restore(match.config, stored);
  expect(JSON.stringify(snapshotOf(restored))).toBe(live);
  // A restored match records the same events (pact ids included): restoring those again (an undo
  // after a failed append on a re-opened game) gives the same match.
  expect(JSON.stringify(restored.events)).toBe(JSON.stringify(match.events));
  expect(JSON.stringify(snapshotOf(Match.restore(match.config, restored.events)))).toBe(live);
}

/** A seated match, started at `t0`; returns the seat colours. */
function seated(match: Match, t0: number): Colour[] {
  const colours: Colour[] = [];
  for (let i = 0; i < match.seats.seats.size; i++) {
    const out = match.apply({ type: 'take_seat', name: `p${i}` }, t0 + i);
    accepted(out);
    expect(out.seat?.key).toMatch(/^[0-9a-f]{32}$/);
    // Only the key's hash is kept, in the seat and in the event.
    expect(JSON.stringify(match.events)).not.toContain(out.seat!.key);
    colours.push(out.seat!.colour);
  }
  return colours;
}

test.each([4, 3, 2])('a %i-player match with press, pacts, a spectator and clocks restores from its events', (players) => {
  const match = new Match(config({ rules: { players }, clock: { initialSeconds: 120, incrementSeconds: 2 } }));
  const random = seeded(players * 17);
  let now = 1_000_000;
  const colours = seated(match, now);
  refused(match, { type: 'turn', colour: colours[0], turn: { from: 'a1', to: 'a2' } }, now, 'game_not_started');
  refused(match, { type: 'start', colour: colours[1], creatorConnected: true }, now, 'not_host');
  accepted(match.apply({ type: 'start', colour: colours[0], creatorConnected: true }, now));
  accepted(match.apply({ type: 'spectate', id: 'spec1', name: 'Watcher', limitKey: 'addr:127.0.0.1' }, now));
  accepted(match.apply({ type: 'press', member: 'spec1', message: 'press_send', payload: { channel: 'spectators', text: 'hello' } }, now));
  const pact = match.apply({ type: 'press', member: colours[0], message: 'pact_propose', payload: { with: [colours[1]], rounds: 3, announce: true } }, now);
  accepted(pact);
  const proposal = pact.deliveries.find((d) => d.type === 'pact');
  if (!proposal) throw new Error('no pact delivery');
  const pactId = (proposal.payload as { pact: { id: string } }).pact.id;
  accepted(match.apply({ type: 'press', member: colours[1], message: 'pact_accept', payload: { pact: pactId } }, now));

  for (let i = 0; i < 400 && match.phase === 'playing'; i++) {
    now += 500 + Math.floor(random() * 3000);
    const mover = match.position.toMove!;
    if (i % 7 === 3) {
      accepted(match.apply({ type: 'press', member: mover, message: 'press_send', payload: { channel: 'table', text: `move ${i}` } }, now));
    }
    if (i === 5) refused(match, { type: 'turn', colour: mover, turn: { from: 'z9', to: 'a1' } }, now, 'bad_square');
    if (i === 6) refused(match, { type: 'turn', colour: mover, turn: randomTurn(match.position, random), version: 0 }, now, 'stale');
    const out = match.apply({ type: 'turn', colour: mover, turn: randomTurn(match.position, random), version: match.game.length }, now);
    accepted(out);
  }
  // Whatever is left ends by resignations (a flag falls for the first one to wait too long).
  if (match.phase === 'playing') {
    now += 200_000;
    accepted(match.apply({ type: 'flag' }, now));
    expect(match.events.at(-1)?.intent.type).toBe('flag');
  }
  while (match.phase === 'playing') accepted(match.apply({ type: 'resign', colour: match.position.toMove }, now));
  expect(match.phase).toBe('over');
  refused(match, { type: 'resign', colour: colours[0] }, now, 'game_over');
  expectRestores(match);
});

test('seats before the start: swaps, readiness, names, a freed seat; all restored', () => {
  const match = new Match(config({ rules: { players: 4 } }));
  const [r, b] = seated(match, 0);
  refused(match, { type: 'swap', colour: null, to: 'B' }, 1, 'not_seated');
  accepted(match.apply({ type: 'swap', colour: r, to: b }, 1));
  const swap = match.apply({ type: 'swap', colour: b, to: r }, 2);
  accepted(swap);
  expect(swap.moves).toEqual([
    { from: 'B', to: 'R' },
    { from: 'R', to: 'B' },
  ]);
  accepted(match.apply({ type: 'ready', colour: 'R', ready: true }, 3));
  accepted(match.apply({ type: 'rename', colour: 'Y', name: 'Niccolò' }, 4));
  accepted(match.apply({ type: 'leave_seat', colour: 'G' }, 5));
  expect(match.seats.get('G')?.keyHash).toBeNull();
  refused(match, { type: 'start', colour: 'R', creatorConnected: true }, 6, 'not_ready');
  expectRestores(match);
});

test('a flag that fell before a turn arrived: the timeout comes first, then the turn is judged', () => {
  const match = new Match(config({ rules: { players: 2 }, clock: { initialSeconds: 10 } }));
  const [red] = seated(match, 0);
  accepted(match.apply({ type: 'start', colour: red, creatorConnected: true }, 0));
  const random = seeded(3);
  const late = match.apply({ type: 'turn', colour: red, turn: randomTurn(match.position, random) }, 60_000);
  // Red's clock ran out: the flag fell (recorded), then the turn was refused as the game is over.
  expect(late.ok && late.refused?.code).toBe('game_over');
  expect(match.events.map((e) => e.intent.type)).toContain('flag');
  expect(match.phase).toBe('over');
  expectRestores(match);
});

test("a turn's event keeps the turn as the engine wrote it, not the message it came in", () => {
  const match = new Match(config({ rules: { players: 4 } }));
  const [red] = seated(match, 0);
  accepted(match.apply({ type: 'start', colour: red, creatorConnected: true }, 0));
  const random = seeded(5);
  const versions: number[] = [];
  for (let i = 0; i < 40 && match.phase === 'playing'; i++) {
    const mover = match.position.toMove!;
    versions.push(match.game.length);
    // The message as a client sends it (the turn and the version), changed after it was accepted.
    const message: Record<string, unknown> = { ...randomTurn(match.position, random) };
    const sent = JSON.stringify(message);
    const out = match.apply(
      { type: 'turn', colour: mover, turn: message as never, version: match.game.length, ...(i % 7 === 3 ? { standIn: true as const } : {}) },
      1000 + i,
    );
    accepted(out);
    message.from = 'zz';
    const kept = JSON.parse(JSON.stringify(out.event)) as MatchEvent;
    // The stored turn is the message's turn as the engine wrote it (no version), the same value read twice.
    expect(kept.intent.type === 'turn' && kept.intent.turn).toEqual(JSON.parse(sent));
    expect(kept.intent).toEqual(out.event!.intent);
    expect(kept.intent.type === 'turn' && kept.intent.version).toBe(undefined);
    expect(kept.intent.type === 'turn' && kept.intent.standIn).toBe(i % 7 === 3 ? true : undefined);
    expect(kept.at).toBe(1000 + i);
  }
  // The log kept compactly reads back the same from any index, in the order accepted (seats, start, turns).
  const all = match.events.map((e) => JSON.stringify(e));
  expect(match.eventCount).toBe(all.length);
  expect(match.eventsFrom(3).map((e) => JSON.stringify(e))).toEqual(all.slice(3));
  expect(match.eventsFrom(2, 7).map((e) => JSON.stringify(e))).toEqual(all.slice(2, 7));
  expect(all.slice(0, 5).map((e) => JSON.parse(e).intent.type)).toEqual(['take_seat', 'take_seat', 'take_seat', 'take_seat', 'start']);
  expectRestores(match);
  // A log written before (each turn with the message's version) replays to the same match.
  let turns = 0;
  const older = all.map((e) => {
    const event = JSON.parse(e) as MatchEvent;
    return event.intent.type === 'turn' ? { ...event, intent: { ...event.intent, version: versions[turns++] } } : event;
  });
  expect(turns).toBe(versions.length);
  expect(JSON.stringify(snapshotOf(Match.restore(match.config, older)))).toBe(JSON.stringify(snapshotOf(match)));
});
test('the rematch vote is in the log: offers and answers, judged and restored with their deadline', () => {
  const match = new Match(config({ rules: { players: 2 } }));
  const t0 = 1_000;
  const [a, b] = seated(match, t0);
  refused(match, { type: 'rematch_offer', colour: a }, t0 + 5, 'not_finished');
  accepted(match.apply({ type: 'start', colour: a }, t0 + 10));
  accepted(match.apply({ type: 'resign', colour: a }, t0 + 20));
  expect(match.phase).toBe('over');
  refused(match, { type: 'rematch_answer', colour: b, accept: true }, t0 + 30, 'no_rematch');
  refused(match, { type: 'rematch_offer', colour: null }, t0 + 30, 'not_seated');
  accepted(match.apply({ type: 'rematch_offer', colour: a }, t0 + 40));
  const deadline = t0 + 40 + REMATCH_SECONDS * 1000;
  expect(match.rematchVote).toEqual({ round: 1, by: a, asked: [a, b], accepted: [a], declined: [], deadline });
  // A second offer while one is open accepts it; an answer replaces the earlier one.
  accepted(match.apply({ type: 'rematch_answer', colour: a, accept: false }, t0 + 50));
  expect(match.rematchVote).toMatchObject({ accepted: [], declined: [a] });
  expectRestores(match);
  // Time is up without an acceptance: answers are refused, a new offer opens round 2.
  refused(match, { type: 'rematch_answer', colour: b, accept: true }, deadline, 'no_rematch');
  // A finished game's room comes back for an offer until its deadline (the log alone tells).
  expect(offerPending(match.events, deadline - 1)).toBe(true);
  expect(offerPending(match.events, deadline)).toBe(false);
  accepted(match.apply({ type: 'rematch_offer', colour: b }, deadline + 1));
  expect(match.rematchVote).toMatchObject({ round: 2, by: b, accepted: [b], deadline: deadline + 1 + REMATCH_SECONDS * 1000 });
  accepted(match.apply({ type: 'rematch_offer', colour: a }, deadline + 2));
  expect(match.rematchVote).toMatchObject({ round: 2, by: b, accepted: [b, a] });
  // Everyone answered with an acceptance: closed, awaiting the new game.
  refused(match, { type: 'rematch_answer', colour: a, accept: false }, deadline + 3, 'rematch_closed');
  expectRestores(match);
  const restored = Match.restore(match.config, JSON.parse(JSON.stringify(match.events)) as MatchEvent[]);
  expect(restored.rematchVote).toEqual(match.rematchVote);
  accepted(match.apply({ type: 'rematch_created', code: 'ABCDEF' }, deadline + 4));
  refused(match, { type: 'rematch_offer', colour: a }, deadline + 5, 'rematch_closed');
  expect(offerPending(match.events, deadline + 5)).toBe(false);
  expectRestores(match);
});

test('a created rematch is an event of the finished game: once, after the result, and restored', () => {
  const match = new Match(config({ rules: { players: 2 } }));
  const t0 = 1_000;
  const colours = seated(match, t0);
  refused(match, { type: 'rematch_created', code: 'ABCDEF' }, t0 + 5, 'not_finished');
  accepted(match.apply({ type: 'start', colour: colours[0] }, t0 + 10));
  refused(match, { type: 'rematch_created', code: 'ABCDEF' }, t0 + 20, 'not_finished');
  accepted(match.apply({ type: 'resign', colour: match.position.toMove }, t0 + 30));
  expect(match.phase).toBe('over');
  expect(match.rematch).toBeNull();
  accepted(match.apply({ type: 'rematch_created', code: 'ABCDEF' }, t0 + 40));
  expect(match.rematch).toBe('ABCDEF');
  refused(match, { type: 'rematch_created', code: 'GHJKMN' }, t0 + 50, 'rematch_closed');
  expect(match.rematch).toBe('ABCDEF');
  const stored = JSON.parse(JSON.stringify(match.events)) as MatchEvent[];
  expect(Match.restore(match.config, stored).rematch).toBe('ABCDEF');
  expectRestores(match);
});
