/**
 * What the server sends decodes with the shared schemas, unchanged (nothing stripped): every
 * press delivery of whole random games driven the way the room drives them (the room's `Game`
 * and `Press`, no Colyseus), the `played` entries of those games, and the `seat`, `rejected` and
 * listing messages of a real server. Garbage is refused with the path of the bad field.
 */
import {
  check,
  PRESS_SERVER_MESSAGES,
  PRESS_SERVER_SCHEMAS,
  parseRules,
  randomTurn,
  RejectedMessage,
  RoomListing,
  RoomListingPage,
  SeatLostMessage,
  SeatMessage,
  seatsOf,
  type AnySchema,
} from '@djambi/shared';
import { Game } from '../../server/src/match/game.js';
import { Press } from '../../server/src/press/index.js';
import { Inbox, counterIds, ok, seeded } from '../press/helpers.js';
import { createRoom, join, leaveAll, quietSdkWarnings, startServer } from '../server/helpers.js';

/** Decodes `payload` and expects the very same value back. */
function roundTrips(schema: AnySchema, payload: unknown, label: string): void {
  const res = check(schema, payload);
  if (!res.ok) throw new Error(`${label} did not decode: ${res.error.message} at ${res.error.path}\n${JSON.stringify(payload).slice(0, 400)}`);
  expect(res.value).toEqual(payload);
}

describe('press deliveries', () => {
  test.each([1, 2, 3, 4])('seed %i: every delivery of a random game decodes', (seed) => {
    const random = seeded(seed);
    const rules = parseRules({ players: ([4, 3, 2] as const)[seed % 3] });
    if (!rules.ok) throw new Error(rules.error.message);
    const seats = seatsOf(rules.value);
    const game = new Game(rules.value);
    const press = new Press({ seats, newId: counterIds(), press_visibility: seed % 2 ? 'existence' : 'hidden' });
    const inbox = new Inbox();
    press.addSpectator('spec', 'Watcher');
    press.start(game.position);
    let now = 0;
    ok(press, inbox, 'spec', 'press_send', { channel: 'spectators', text: 'hi all' }, (now += 1000));
    for (const a of seats) {
      for (const b of seats) {
        if (a >= b) continue;
        ok(press, inbox, a, 'press_open', { members: [b] }, (now += 1000));
        const d = ok(press, inbox, a, 'pact_propose', { with: [b], rounds: seed }, (now += 1000));
        ok(press, inbox, b, 'pact_accept', { pact: (d[0].payload as { pact: { id: string } }).pact.id }, now);
      }
    }
    if (seats.length > 2) ok(press, inbox, seats[0], 'pact_propose', { with: seats.slice(1), announce: true }, (now += 1000));
    for (let i = 0; i < 300 && !game.over; i++) {
      now += 2000;
      const mover = game.position.toMove!;
      ok(press, inbox, mover, 'press_send', { channel: 'table', text: `turn ${game.position.ply}` }, now);
      if (i === 5) ok(press, inbox, mover, 'press_read', { channel: 'table', upTo: 2 }, now);
      if (i === 7) ok(press, inbox, mover, 'press_page', { channel: 'table', before: 3 }, now);
      if (i === 9) {
        ok(press, inbox, mover, 'draw_offer', {}, now);
        const other = seats.find((c) => c !== mover && press.roster.isActive(c));
        if (other) ok(press, inbox, other, 'draw_decline', {}, now);
      }
      const before = game.position;
      const res = i === 40 && seats.length > 2 ? game.resign(mover, now) : game.play(mover, randomTurn(game.position, random), now);
      if (!res.ok) throw new Error(res.error.message);
      inbox.take(press.afterEntries(before, res.value, now));
    }
    if (!game.over) {
      const before = game.position;
      const res = game.resign(game.position.toMove!, now);
      if (!res.ok) throw new Error(res.error.message);
      inbox.take(press.afterEntries(before, res.value, now));
    }
    for (const m of [...seats, 'spec']) inbox.take([{ to: [m], type: 'press_history', payload: press.historyFor(m) }]);

    const seen = new Set<string>();
    for (const m of [...seats, 'spec']) {
      for (const { type, payload } of inbox.of(m)) {
        expect(PRESS_SERVER_MESSAGES).toContain(type);
        seen.add(type);
        roundTrips(PRESS_SERVER_SCHEMAS[type as (typeof PRESS_SERVER_MESSAGES)[number]], payload, `${type} to ${m}`);
      }
    }
    for (const type of ['press_message', 'press_channel', 'press_history', 'pact', 'draw', 'press_reveal', 'press_page', 'press_unread'])
      expect(seen).toContain(type);
  });

  test('garbage is refused with the path of the bad field', () => {
    const bad = (schema: AnySchema, payload: unknown) => {
      const res = check(schema, payload);
      return res.ok ? 'accepted' : res.error.path;
    };
    expect(bad(PRESS_SERVER_SCHEMAS.press_message, { message: { id: 1, channel: 'table', from: 'R', text: 5, ply: 0, at: 0 } })).toBe('message.text');
    expect(bad(PRESS_SERVER_SCHEMAS.press_history, null)).toBe(undefined);
    expect(bad(PRESS_SERVER_SCHEMAS.pact, { event: 'nope', by: null, pact: {} })).toBe('event');
    expect(bad(PRESS_SERVER_SCHEMAS.press_reveal, { conversations: true, channels: [], pacts: [], betrayals: [], timeline: [{ kind: 'spam' }] })).toBe(
      'timeline.0.kind',
    );
    expect(bad(SeatMessage, { colour: 'Q', seatKey: 'k' })).toBe('colour');
    expect(bad(RejectedMessage, { type: 'turn', code: 7, message: '' })).toBe('code');
    expect(bad(RoomListing, { code: 'ABCDEF' })).toBe('phase');
  });
});

describe('a real server', () => {
  quietSdkWarnings();
  let server: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.close();
  });

  test('seat, rejected, seat_lost and the listing decode', async () => {
    const a = await createRoom(server, { rules: { players: 2 }, visibility: 'public', clock: { initialSeconds: 600, incrementSeconds: 5 }, name: 'ann' });
    const code = a.state.code as string;
    const b = await join(server, code, { name: 'bob' });
    for (const c of [a, b]) for (const m of c.received('seat')) roundTrips(SeatMessage, m, 'seat');
    const rejected = [
      await a.sendExpectRejected('turn', { from: 'a9', to: 5 }),
      await a.sendExpectRejected('swap', 'R'),
      await a.sendExpectRejected('nope', {}),
      await a.sendExpectRejected('press_send', { channel: 'table', text: '' }),
    ];
    expect(rejected.map((r) => r.code)).toEqual(['bad_payload', 'bad_payload', 'unknown_message', 'empty_message']);
    for (const r of rejected) roundTrips(RejectedMessage, r, 'rejected');
    for (const c of [a, b]) {
      for (const { type, message } of c.messages) {
        if (typeof type === 'string' && (PRESS_SERVER_MESSAGES as readonly string[]).includes(type)) {
          roundTrips(PRESS_SERVER_SCHEMAS[type as (typeof PRESS_SERVER_MESSAGES)[number]], message, type);
        }
      }
    }

    const page = await (await fetch(`${server.url}/api/rooms`)).json();
    roundTrips(RoomListingPage, page, 'listing page');
    const listed = (page as { rooms: unknown[] }).rooms;
    expect(listed.length).toBeGreaterThan(0);
    for (const room of listed) roundTrips(RoomListing, room, 'listed room');
    roundTrips(RoomListing, await (await fetch(`${server.url}/api/rooms/${code}`)).json(), 'room');

    // The seat reclaimed from another connection: the old one gets `seat_lost`.
    const key = b.seat!.seatKey;
    const again = await join(server, code, { seatKey: key });
    const lost = await b.waitMessage('seat_lost');
    roundTrips(SeatLostMessage, lost, 'seat_lost');
    await leaveAll([a, again]);
  });
});
