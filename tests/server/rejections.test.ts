/**
 * Bad input: out-of-turn, wrong-seat, illegal, malformed, oversized and spectator turns are
 * rejected with codes to the sender only and change nothing; a junk flood neither crashes nor
 * stalls the room; two rooms in parallel do not interfere.
 */
import { pack } from '@colyseus/msgpackr';
import { legalDestinations, MAX_PAYLOAD_BYTES, MAX_PRESS_PAYLOAD_BYTES, makeSquare, parseRules, pieces, randomTurn, SQUARE_COUNT } from '@djambi/shared';
import { MAX_FRAME_BYTES, type RunningServer } from '../../server/src/app.js';
import { joinRaw, type RawConnection, roomData } from '../bench/loadgen/protocol.js';
import {
  fullRoom,
  holder,
  join,
  leaveAll,
  playRandomGame,
  positionOf,
  quietSdkWarnings,
  randomTurnFor,
  seeded,
  snapshot,
  startServer,
  type TestClient,
} from './helpers.js';
import { simulate } from './durability.js';

quietSdkWarnings();
let server: RunningServer;
beforeAll(async () => {
  // The junk flood below checks that every junk message is answered: a budget roomy enough for it
  // (the budget itself is tested in roomLimits.test.ts).
  server = await startServer({ rooms: { budget: { burst: 5000, perSecond: 1000, strikes: 100, strikesPerSecond: 10 } } });
});
afterAll(async () => {
  await server.close();
});

async function started(players: number, spectators: number, rules: Record<string, unknown> = {}) {
  const room = await fullRoom(server, { rules: { players, ...rules } }, spectators);
  room.players[0].room.send('start');
  await Promise.all(room.all.map((c) => c.waitState((s) => s.phase === 'playing', 'start')));
  return room;
}

/** Sends `message` as `type` from `c`, expects a rejection with `code`, and nothing else to change. */
async function expectRejected(c: TestClient, others: TestClient[], type: string | number, message: unknown, code: string): Promise<void> {
  const before = others.map((o) => JSON.stringify(snapshot(o.state)));
  const othersRejected = others.map((o) => o.received('rejected').length);
  const reply = await c.sendExpectRejected(type as string, message);
  expect({ type, code: reply.code }).toEqual({ type, code });
  expect(typeof reply.message).toBe('string');
  // A rejection goes to the sender only; no state changed anywhere.
  expect(others.map((o) => o.received('rejected').length)).toEqual(othersRejected);
  expect(others.map((o) => JSON.stringify(snapshot(o.state)))).toEqual(before);
}

test('bad turns are rejected with codes and change nothing', async () => {
  const room = await fullRoom(server, { rules: { players: 4 } }, 1);
  const [r, b] = room.players;
  const spec = room.spectators[0];
  const others = (c: TestClient) => room.all.filter((x) => x !== c);

  // Before the start.
  await expectRejected(r, others(r), 'turn', { from: 'a9', to: 'a8' }, 'game_not_started');
  await expectRejected(r, others(r), 'resign', undefined, 'game_not_started');
  await expectRejected(r, others(r), 'draw_offer', undefined, 'game_not_started');
  r.room.send('start');
  await Promise.all(room.all.map((c) => c.waitState((s) => s.phase === 'playing')));

  const pos = positionOf(r.state);
  const legal = randomTurn(pos, seeded(1));
  if ('pass' in legal) throw new Error('unexpected pass');
  const redPiece = pieces(pos).find((p) => p.colour === 'R' && p.alive && legalDestinations(pos, p.square).length > 0)!;
  // A Blue militant one step from an empty square (Blue's own legal move when Blue is to move).
  const blueMove = { from: 'h7', to: 'h6' };
  expect(pieces(pos).find((p) => p.square === 'h7')?.colour).toBe('B');
  const all = pieces(pos).map((p) => p.square);
  const squares = Array.from({ length: SQUARE_COUNT }, (_, sq) => makeSquare(sq));
  const illegalTo = squares.find((sq) => sq !== redPiece.square && !legalDestinations(pos, redPiece.square).includes(sq) && !all.includes(sq))!;

  // Out of turn: Blue plays while Red is to move, even Red's own legal turn.
  await expectRejected(b, others(b), 'turn', legal, 'not_your_turn');
  await expectRejected(b, others(b), 'turn', blueMove, 'not_your_turn');
  // Wrong seat: Red moves a Blue piece.
  await expectRejected(r, others(r), 'turn', blueMove, 'not_your_piece');
  // Illegal destination, bad squares, a pass with moves available, choices the move does not need.
  await expectRejected(r, others(r), 'turn', { from: redPiece.square, to: illegalTo }, 'illegal_destination');
  await expectRejected(r, others(r), 'turn', { from: 'z9', to: 'a1' }, 'bad_square');
  await expectRejected(r, others(r), 'turn', { pass: true }, 'cannot_pass');
  await expectRejected(r, others(r), 'turn', { ...legal, exit: 'a1' }, 'unexpected_choice');
  // A stale version.
  await expectRejected(r, others(r), 'turn', { ...legal, version: 99 }, 'stale');
  // Spectators cannot act.
  await expectRejected(spec, others(spec), 'turn', legal, 'not_seated');
  await expectRejected(spec, others(spec), 'resign', undefined, 'not_seated');
  await expectRejected(spec, others(spec), 'draw_offer', {}, 'not_seated');
  // Malformed.
  for (const junk of [
    'e2e4',
    42,
    null,
    [1, 2],
    { from: 5, to: 'a1' },
    { from: 'a9' },
    { from: 'a9', to: 'a8', extra: 1 },
    { pass: 'yes' },
    { version: -1, from: 'a9', to: 'a8' },
    { from: '', to: 'a8' },
    { from: 'a9', to: 'a8', reporterTarget: 7 },
  ]) {
    await expectRejected(r, others(r), 'turn', junk, 'bad_payload');
  }
  await expectRejected(r, others(r), 'resign', { now: true }, 'bad_payload');
  await expectRejected(r, others(r), 'swap', 'R', 'bad_payload');
  // Oversized.
  await expectRejected(r, others(r), 'turn', { from: 'a'.repeat(2000), to: 'a8' }, 'payload_too_large');
  await expectRejected(r, others(r), 'turn', { from: 'a9', to: 'a8', junk: 'x'.repeat(8000) }, 'payload_too_large');
  // Nested: the strict schema refuses the first unknown field without reading what it holds.
  await expectRejected(r, others(r), 'turn', { a: { b: { c: { d: { e: { f: { g: { h: { i: { j: 1 } } } } } } } } } }, 'bad_payload');
  // Unknown message types, string or numeric.
  await expectRejected(r, others(r), 'move', { from: 'a9', to: 'a8' }, 'unknown_message');
  await expectRejected(spec, others(spec), 7, 'x', 'unknown_message');

  // Raw bytes where an object is expected.
  const beforeBytes = r.received('rejected').length;
  r.room.sendBytes('turn', new Uint8Array([1, 2, 3]));
  expect((await r.waitMessage('rejected', beforeBytes)).code).toBe('bad_payload');

  // A frame above the transport limit closes only that connection; the room goes on.
  const big = await (await import('./helpers.js')).join(server, room.code, { spectate: true });
  big.room.send('turn', { from: 'a9', to: 'a8', junk: 'x'.repeat(40000) });
  await big.waitLeft();

  // After all that, the legal turn is still accepted.
  const v = r.state.version;
  r.room.send('turn', legal);
  await Promise.all(room.all.map((c) => c.waitState((s) => s.version === v + 1, 'legal turn accepted')));
  await leaveAll(room.all);
});

/** Sends `frame` on `conn` and resolves with its answer: the rejection, or the code the connection closed with. */
function answerTo(conn: RawConnection, frame: Buffer): Promise<{ type: string; code: string; path?: string } | { closed: number }> {
  return new Promise((resolve) => {
    conn.onMessage = (type, payload) => {
      if (type === 'rejected') resolve(payload() as { type: string; code: string; path?: string });
    };
    conn.onClose = (closed) => resolve({ closed });
    conn.sendBytes(frame);
  });
}

/** `depth` msgpack arrays of one item, each inside the last, around a nil. */
function nestedArrays(depth: number): Buffer {
  const bytes = Buffer.alloc(depth + 1, 0x91);
  bytes[depth] = 0xc0;
  return bytes;
}

test('payloads are bounded by their exact bytes before decoding; deep nesting and huge maps are refused cheaply', async () => {
  const room = await started(2, 0);
  const [r] = room.players;
  const spy = await joinRaw(`http://127.0.0.1:${server.port}`, 'joinById', room.code, { spectate: true });
  const send = (type: string, payload: Buffer) => answerTo(spy, Buffer.concat([roomData(type), payload]));
  /** A `{ [key]: 'x' × n }` payload of exactly `bytes` bytes. */
  const sized = (bytes: number, key: string, extra: Record<string, unknown> = {}) => {
    const n = bytes - pack({ ...extra, [key]: '' }).length;
    const out = pack({ ...extra, [key]: 'x'.repeat(n - 2) }); // str16: 2 header bytes more than an empty fixstr
    expect(out.length).toBe(bytes);
    return out;
  };

  // The limit is exact: at the limit the schema reads the payload, one byte over it is refused unread.
  expect(await send('turn', sized(MAX_PAYLOAD_BYTES, 'junk'))).toMatchObject({ type: 'turn', code: 'bad_payload', path: 'junk' });
  expect(await send('turn', sized(MAX_PAYLOAD_BYTES + 1, 'junk'))).toMatchObject({ type: 'turn', code: 'payload_too_large' });
  expect(await send('rematch', sized(MAX_PAYLOAD_BYTES + 1, 'action'))).toMatchObject({ type: 'rematch', code: 'payload_too_large' });
  expect(await send('nope', sized(MAX_PAYLOAD_BYTES + 1, 'x'))).toMatchObject({ type: 'nope', code: 'payload_too_large' });
  const chat = { channel: 'spectators' };
  expect(await send('press_send', sized(MAX_PRESS_PAYLOAD_BYTES, 'text', chat))).toMatchObject({ code: 'message_too_long' });
  expect(await send('press_send', sized(MAX_PRESS_PAYLOAD_BYTES + 1, 'text', chat))).toMatchObject({ code: 'payload_too_large' });

  // A 16 KB frame (the transport's largest) of nested arrays or maps is refused before msgpack reads it.
  const head = roomData('press_send').length;
  expect(await send('press_send', nestedArrays(MAX_FRAME_BYTES - head - 1))).toMatchObject({ code: 'payload_too_large' });
  expect(await send('turn', nestedArrays(MAX_FRAME_BYTES - roomData('turn').length - 1))).toMatchObject({ code: 'payload_too_large' });
  // Under the limit: decoded, then refused by the schema at its first look.
  expect(await send('turn', nestedArrays(MAX_PAYLOAD_BYTES - 1))).toMatchObject({ code: 'bad_payload' });
  const maps = Buffer.alloc(3 * Math.floor((MAX_PAYLOAD_BYTES - 1) / 3) + 1, 0xc0); // { a: { a: … nil } }
  for (let i = 0; i + 1 < maps.length; i += 3) maps.set([0x81, 0xa1, 0x61], i);
  expect(await send('turn', maps)).toMatchObject({ code: 'bad_payload', path: 'a' });
  const huge = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, i]));
  expect(pack(huge).length).toBeLessThanOrEqual(MAX_PRESS_PAYLOAD_BYTES);
  expect(await send('press_send', pack(huge))).toMatchObject({ code: 'bad_payload' });
  expect(await send('pact_propose', pack({ with: Array.from({ length: 1000 }, () => 'B') }))).toMatchObject({ code: 'bad_payload', path: 'with' });
  // 8 KB of nested arrays, within the press's limit: msgpack decodes it and the schema refuses
  // it, or, past msgpack's recursion, Colyseus closes that connection (4002). Never a crash.
  const deep = await send('press_send', nestedArrays(MAX_PRESS_PAYLOAD_BYTES - 1));
  expect('closed' in deep ? deep.closed : deep.code).toBe('closed' in deep ? 4002 : 'bad_payload');
  await spy.close();

  // The room plays on at once.
  const v = r.state.version;
  r.room.send('turn', randomTurnFor(r.state, seeded(5)));
  await Promise.all(room.all.map((c) => c.waitState((s) => s.version === v + 1, 'a turn after the frames')));
  await leaveAll(room.all);
});

test('game over: every game action is rejected with game_over', async () => {
  const room = await started(2, 0);
  const [r, y] = room.players;
  r.room.send('resign');
  await Promise.all(room.all.map((c) => c.waitState((s) => s.phase === 'over' && s.result.kind === 'win' && s.result.winner === 'Y', 'Y wins')));
  expect(y.state.eliminations.toArray().map((e: any) => [e.colour, e.cause])).toEqual([['R', 'resigned']]); // eslint-disable-line @typescript-eslint/no-explicit-any
  expect(y.state.moves.toArray()).toEqual(['R resign']);
  const legal = randomTurnFor(y.state, seeded(3));
  await expectRejected(y, [r], 'turn', legal, 'game_over');
  await expectRejected(y, [r], 'resign', undefined, 'game_over');
  await expectRejected(r, [y], 'draw_offer', undefined, 'game_over');
  await leaveAll(room.all);
});

test('a flood of junk messages neither crashes nor stalls the room', async () => {
  const room = await started(4, 1);
  const [r] = room.players;
  const spec = room.spectators[0];
  const random = seeded(99);
  const N = 1500;
  const junkPayloads: unknown[] = [
    undefined,
    null,
    0,
    -1,
    1e308,
    'x',
    'x'.repeat(900),
    [],
    [[[]]],
    {},
    { from: {} },
    { from: 'a1', to: 'a1' },
    true,
    { __proto__: { a: 1 } },
    { constructor: 'x' },
  ];
  // Real actions that a junk payload would make valid (resign, draw_offer, draw_accept) are left out.
  const types = ['turn', 'start', 'swap', 'name', 'draw_decline', 'nope', '', '__proto__', 'constructor', 'toString', '*', '__no_message_handler', 0, 255];
  const expected = new Map<TestClient, number>(room.all.map((c) => [c, c.received('rejected').length]));
  for (let i = 0; i < N; i++) {
    const c = i % 2 === 0 ? spec : room.players[1 + (i % 3)];
    const type = types[Math.floor(random() * types.length)];
    const payload = junkPayloads[Math.floor(random() * junkPayloads.length)];
    c.room.send(type as string, payload);
    expected.set(c, expected.get(c)! + 1);
  }
  // The room still plays at once, and answers every junk message with a rejection.
  const v = r.state.version;
  r.room.send('turn', randomTurnFor(r.state, random));
  await Promise.all(room.all.map((c) => c.waitState((s) => s.version === v + 1, 'turn after the flood', 10000)));
  for (const [c, n] of expected) {
    await c.waitState(() => c.received('rejected').length >= n, 'every junk message answered', 10000);
    expect(c.received('rejected')).toHaveLength(n);
  }
  expect(spec.received('rejected').every((m: { code: string }) => typeof m.code === 'string')).toBe(true);
  const snaps = room.all.map((c) => JSON.stringify(snapshot(c.state)));
  for (const s of snaps) expect(s).toBe(snaps[0]);
  await leaveAll(room.all);
});

test('two rooms in parallel do not interfere', async () => {
  const rulesA = { players: 4, no_progress_rounds: 6 };
  const rulesB = { players: 3, no_progress_rounds: 6, reporter: 'all_adjacent' };
  const [a, b] = await Promise.all([started(4, 1, rulesA), started(3, 1, rulesB)]);
  expect(a.code).not.toBe(b.code);
  await Promise.all([playRandomGame(a.players, a.all, 11, { maxTurns: 60 }), playRandomGame(b.players, b.all, 22, { maxTurns: 60 })]);
  for (const [room, rules, seed] of [
    [a, rulesA, 11],
    [b, rulesB, 22],
  ] as const) {
    const parsed = parseRules(rules);
    if (!parsed.ok) throw new Error(parsed.error.message);
    const expected = simulate(parsed.value, seed, 60).moves;
    const texts = room.all[0].state.moves.toArray();
    expect(texts).toEqual(expected);
    for (const c of room.all) expect(c.state.moves.toArray()).toEqual(texts);
  }
  // Late joiners of both rooms, in turns: each gets its own room's whole state.
  const late: TestClient[] = [];
  for (const room of [a, b, a, b]) {
    const c = await join(server, room.code, { spectate: true });
    late.push(c);
    const n = c.state.spectators;
    await room.all[0].waitState((s) => s.spectators === n, 'the spectator counted');
    expect(c.state.moves.toArray()).toEqual(room.all[0].state.moves.toArray());
    expect(JSON.stringify(snapshot(c.state))).toBe(JSON.stringify(snapshot(room.all[0].state)));
  }
  await leaveAll([...a.all, ...b.all, ...late]);
  void holder;
});
