/**
 * The archive serves the whole revealed press of a finished game: `GET /api/games/CODE/reveal`
 * brings the reveal (the latest 50 messages per channel), and `?channel=ID&before=N` pages the
 * older ones, after the room is gone; the replay viewer's story (`RevealStory`) reads it all back
 * in order. Bad `channel`, `before` and `limit` answer 400 with a code.
 */
import { matchMaker } from '@colyseus/core';
import { RevealStory } from '../../client/src/game/replay.js';
import type { RunningServer } from '../../server/src/app.js';
import { MemoryStore } from '../../server/src/store/memory.js';
import { leaveAll, quietSdkWarnings, type TestClient, waitClients } from './helpers.js';
import { pressRoom, sendAndWait, startPressServer } from './pressHelpers.js';
import { TestClock } from '../support/clock.js';

quietSdkWarnings();
const clock = TestClock.following();
const store = new MemoryStore();
let server: RunningServer;
beforeAll(async () => {
  server = await startPressServer(clock, { store });
});
afterAll(async () => {
  await server.close();
});

type Msg = any; // eslint-disable-line @typescript-eslint/no-explicit-any

async function get(path: string): Promise<{ status: number; body: Msg }> {
  const res = await fetch(`${server.url}${path}`);
  return { status: res.status, body: await res.json() };
}

/**
 * Posts `text` and waits until every client in `readers` has it, so that the next message is
 * sent after this one was accepted (the order of the test is the server's order).
 */
async function say(from: TestClient, channel: string, text: string, readers: TestClient[]): Promise<void> {
  const has = (c: TestClient) => c.received('press_message').some((m: Msg) => m.message.text === text && m.message.channel === channel);
  await sendAndWait(from, 'press_send', { channel, text }, from, 'press_message');
  await waitClients(readers, () => readers.every(has), `"${text}" everywhere`);
}

/** Ends a two-player game by agreement; waits for the reveal. */
async function drawGame(a: TestClient, b: TestClient): Promise<void> {
  clock.advance(2000);
  const offer = await sendAndWait(a, 'draw_offer', {}, b, 'draw');
  await sendAndWait(b, 'draw_accept', { offer: offer.offer.id }, a, 'press_reveal');
  await b.waitState((s) => s.phase === 'over', 'game over');
}

/** Leaves and disposes the room, so that what follows reads the store only. */
async function dispose(clients: TestClient[], code: string): Promise<void> {
  await leaveAll(clients);
  await matchMaker.getLocalRoomById(code)?.disconnect();
  expect(matchMaker.getLocalRoomById(code)).toBeUndefined();
  expect(await matchMaker.query({ roomId: code })).toHaveLength(0);
}

/** Reads a channel back from the archive, page by page, newest page first; returns the messages oldest first. */
async function readBack(code: string, channel: string, limit?: number): Promise<{ messages: Msg[]; pages: number }> {
  let messages: Msg[] = [];
  let before: number | null = null;
  let pages = 0;
  for (;;) {
    const q = new URLSearchParams({ channel, ...(before === null ? {} : { before: String(before) }), ...(limit ? { limit: String(limit) } : {}) });
    const { status, body } = await get(`/api/games/${code}/reveal?${q}`);
    expect(status).toBe(200);
    pages++;
    expect(body.page.channel).toBe(channel);
    expect(body.page.messages.length).toBeLessThanOrEqual(limit ?? 50);
    messages = [...body.page.messages, ...messages];
    if (!body.page.more) return { messages, pages };
    before = body.page.messages[0].id;
  }
}

test('every message of a revealed channel is read back from the archive, in order, after the room is gone', async () => {
  const room = await pressRoom(server, { rules: { players: 2 } }, 0);
  const [R, Y] = ['R', 'Y'].map(room.by);
  await sendAndWait(R, 'press_open', { members: ['Y'] }, Y, 'press_channel');
  const sent: { from: string; text: string }[] = [];
  for (let i = 1; i <= 130; i++) {
    const from = i % 2 ? R : Y;
    clock.advance(1000);
    const text = `message ${i}`;
    await say(from, 'dm:RY', text, [R, Y]);
    sent.push({ from: from.seat!.colour, text });
  }
  await say(R, 'table', 'good game', [R, Y]);
  const live = await get(`/api/games/${room.code}/reveal?channel=table`);
  expect(live.status).toBe(409);
  expect(live.body.error.code).toBe('game_not_over');
  await drawGame(R, Y);
  await dispose(room.all, room.code);

  // The reveal itself holds the latest 50 of the channel and says there are more.
  const { status, body } = await get(`/api/games/${room.code}/reveal`);
  expect(status).toBe(200);
  expect(body.reveal.channels.find((c: Msg) => c.id === 'dm:RY')).toMatchObject({ more: true });
  const inReveal = body.reveal.timeline.filter((i: Msg) => i.kind === 'message' && i.channel === 'dm:RY');
  expect(inReveal.map((m: Msg) => m.id)).toEqual(Array.from({ length: 50 }, (_, i) => 81 + i));

  // The archive pages the rest: 50 a page by default, `limit` up to 100.
  for (const [limit, pages] of [
    [undefined, 3],
    [100, 2],
    [7, 19],
  ] as const) {
    const back = await readBack(room.code, 'dm:RY', limit);
    expect(back.pages).toBe(pages);
    expect(back.messages.map((m: Msg) => m.id)).toEqual(Array.from({ length: 130 }, (_, i) => i + 1));
    expect(back.messages.map((m: Msg) => ({ from: m.from, text: m.text }))).toEqual(sent);
    // What the reveal holds is the end of the same list.
    expect(back.messages.slice(80)).toEqual(inReveal.map(({ kind, ...m }: Msg) => m));
  }
  const table = await readBack(room.code, 'table');
  expect(table.messages.map((m: Msg) => m.text)).toEqual(['good game']);
  // `before` past the last id gives the latest messages; `before: 1` gives none.
  expect((await get(`/api/games/${room.code}/reveal?channel=dm:RY&before=1000&limit=2`)).body.page).toMatchObject({
    before: 1000,
    messages: [{ id: 129 }, { id: 130 }],
    more: true,
  });
  expect((await get(`/api/games/${room.code}/reveal?channel=dm:RY&before=1`)).body.page).toEqual({ channel: 'dm:RY', before: 1, messages: [], more: false });

  // The replay viewer's story, page by page from the archive, ends up with every message in order.
  const story = new RevealStory(body.reveal);
  for (let guard = 0; story.older().length > 0 && guard < 10; guard++) {
    for (const req of story.older()) {
      const r = await get(`/api/games/${room.code}/reveal?channel=${req.channel}&before=${req.before}`);
      expect(story.addPage(r.body.page)).toBe(true);
    }
  }
  expect(story.older()).toEqual([]);
  const told = story.timeline.filter((i: Msg) => i.kind === 'message');
  expect(told.map((m: Msg) => m.text)).toEqual([...sent.map((m) => m.text), 'good game']);
  expect(told.every((m: Msg, i: number) => i === 0 || told[i - 1].at <= m.at)).toBe(true);

  // Bad queries: 400 with a code, nothing else.
  for (const [query, code] of [
    ['channel=dm:RY&before=0', 'bad_query'],
    ['channel=dm:RY&before=abc', 'bad_query'],
    ['channel=dm:RY&before=1.5', 'bad_query'],
    ['channel=dm:RY&before=-3', 'bad_query'],
    ['channel=dm:RY&before=99999999999999999999', 'bad_query'],
    ['channel=dm:RY&before=5&before=6', 'bad_query'],
    ['channel=dm:RY&limit=0', 'bad_query'],
    ['channel=dm:RY&limit=101', 'bad_query'],
    ['channel=', 'bad_query'],
    [`channel=${'x'.repeat(41)}`, 'bad_query'],
    ['channel=a&channel=b', 'bad_query'],
    ['before=5', 'bad_query'],
    ['limit=5', 'bad_query'],
    ['channel=nowhere', 'no_such_channel'],
    ['channel=dm:RB', 'no_such_channel'],
    ['channel=dm:YR', 'no_such_channel'],
    ['channel=group:RY', 'no_such_channel'],
  ] as const) {
    const r = await get(`/api/games/${room.code}/reveal?${query}`);
    expect({ query, status: r.status, code: r.body.error?.code }).toEqual({ query, status: 400, code });
    expect(typeof r.body.error.message).toBe('string');
  }
  expect((await get('/api/games/ZZZZZZ/reveal?channel=table')).status).toBe(404);
});

test('with reveal_press_after_game off, the archive pages the table only', async () => {
  const room = await pressRoom(server, { rules: { players: 2 }, reveal_press_after_game: false }, 1);
  const [R, Y] = ['R', 'Y'].map(room.by);
  const S = room.spectators[0];
  await sendAndWait(R, 'press_open', { members: ['Y'] }, Y, 'press_channel');
  clock.advance(1000);
  await say(R, 'dm:RY', 'secret', [R, Y]);
  await say(Y, 'table', 'hello', room.all);
  await say(S, 'spectators', 'watching', [S]);
  await drawGame(R, Y);
  await dispose(room.all, room.code);

  expect((await get(`/api/games/${room.code}/reveal?channel=table`)).body.page.messages.map((m: Msg) => m.text)).toEqual(['hello']);
  // A hidden conversation answers as a channel that never existed.
  for (const channel of ['dm:RY', 'spectators']) {
    const r = await get(`/api/games/${room.code}/reveal?channel=${channel}`);
    expect({ status: r.status, code: r.body.error.code, message: r.body.error.message }).toEqual({
      status: 400,
      code: 'no_such_channel',
      message: 'not a revealed channel of this game',
    });
  }
});
