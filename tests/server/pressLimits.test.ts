/**
 * Press limits on the real server, each hit by a flood and followed by legitimate clients that
 * still talk and play: the rate limit of a spectator that leaves and rejoins (keyed by its
 * address, not its session), the per-author cap, the bounded `press_history` with `press_page`
 * (its permissions and its own rate limit), and the bounded reveal after the game.
 *
 * Two client addresses on one machine: the server listens on `::` (both stacks), the flooder
 * comes over IPv4 loopback (`::ffff:127.0.0.1`) and the legitimate spectator over IPv6 loopback
 * (`::1`). Where IPv6 is missing, the parts that need a second address are skipped with a warning.
 *
 * These tests need the room to pass the limit key:
 * `this.press.addSpectator(client.sessionId, opts.name, 'addr:' + address)` in `onJoin`.
 */
import { createConnection } from 'node:net';
import { Client } from 'colyseus.js';
import { AUTHOR_CAP_SPECTATORS, HISTORY_MESSAGES, MAX_PAGE_MESSAGES, PAGE_BURST, RATE_BURST } from '../../server/src/press/index.js';
import type { RunningServer } from '../../server/src/app.js';
import { holder, leaveAll, quietSdkWarnings, randomTurnFor, seeded, startServer, TestClient, waitClients, type State } from './helpers.js';
import { pressRoom, sendAndWait } from './pressHelpers.js';
import { TestClock } from '../support/clock.js';

quietSdkWarnings();
const clock = TestClock.following();
let server: RunningServer;
let ipv6 = false;

/** True when the IPv6 loopback answers on `port`. */
function ipv6Answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '::1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

beforeAll(async () => {
  server = await startServer({ now: clock.now, host: '::' });
  ipv6 = await ipv6Answers(server.port);
  if (!ipv6) console.warn('[pressLimits] no IPv6 loopback: the checks that need a second client address are skipped');
});
afterAll(async () => {
  await server.close();
});

type Msg = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Joins a room by code over IPv4 (`v4`) or IPv6 (`v6`) loopback. */
async function joinOver(stack: 'v4' | 'v6', code: string, options: Record<string, unknown>): Promise<TestClient> {
  const sdk = new Client(stack === 'v4' ? `ws://127.0.0.1:${server.port}` : `ws://[::1]:${server.port}`);
  const room = await sdk.joinById<State>(code, options);
  const tc = new TestClient(room, sdk);
  await tc.waitState((s) => s.code === code, 'initial state');
  return tc;
}

/** A spectator that has received its `press_history`. */
async function spectator(stack: 'v4' | 'v6', code: string, name: string): Promise<TestClient> {
  const c = await joinOver(stack, code, { spectate: true, name });
  await c.waitMessage('press_history');
  return c;
}

/**
 * Sends `texts` to `channel` at once and waits for an answer to each: the sender's own
 * `press_message`, or a `rejected`. Returns how many passed and the refusal codes.
 */
async function burst(c: TestClient, channel: string, texts: readonly string[]): Promise<{ accepted: number; refused: string[] }> {
  const me = c.seat?.colour ?? c.sessionId; // a seat writes as its colour, a spectator as its session
  const own = () => c.received('press_message').filter((m: Msg) => m.message.from === me).length;
  const rejections = () => c.received('rejected').filter((r: Msg) => r.type === 'press_send');
  const [o, r] = [own(), rejections().length];
  for (const text of texts) c.room.send('press_send', { channel, text });
  await c.waitState(() => own() - o + rejections().length - r >= texts.length, `answers to ${texts.length} messages`);
  return {
    accepted: own() - o,
    refused: rejections()
      .slice(r)
      .map((x: Msg) => x.code),
  };
}

/** Sends a `press_page` and waits for its answer (a `press_page`, or a `rejected`). */
async function askPage(c: TestClient, payload: Record<string, unknown>): Promise<{ page?: Msg; rejected?: Msg }> {
  const [p, r] = [c.received('press_page').length, c.received('rejected').length];
  c.room.send('press_page', payload);
  await c.waitState(() => c.received('press_page').length > p || c.received('rejected').length > r, 'press_page answer');
  return c.received('press_page').length > p ? { page: c.received('press_page')[p] } : { rejected: c.received('rejected')[r] };
}

/** The player to move plays a random legal turn; waits until `watchers` see it. */
async function playOne(players: TestClient[], watchers: TestClient[], seed: number): Promise<void> {
  const toMove = players[0].state.toMove as string;
  const actor = holder(players, toMove);
  const v = actor.state.version as number;
  actor.room.send('turn', { ...randomTurnFor(actor.state, seeded(seed)), version: v });
  await waitClients(
    [actor, ...watchers],
    () => {
      const r = actor.received('rejected').filter((x: Msg) => x.type === 'turn');
      if (r.length > 0) throw new Error(`turn rejected: ${JSON.stringify(r[0])}`);
      return watchers.every((w) => (w.state.version as number) > v);
    },
    'a turn',
  );
}

const bytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value), 'utf8');
const text = (i: number): string => `flood ${String(i).padStart(4, '0')} ${'x'.repeat(150)}`;

test('a spectator that floods, then leaves and rejoins 30 times, stays rate-limited; players and other spectators still talk', async () => {
  const room = await pressRoom(server, { rules: { players: 2 } }, 0);
  clock.advance(10_000);
  let flooder = await spectator('v4', room.code, 'flood');
  const first = await burst(flooder, 'spectators', ['a', 'b', 'c', 'd', 'e', 'f']);
  expect(first).toEqual({ accepted: RATE_BURST, refused: ['rate_limited'] });

  // 30 rejoins, each a new session from the same address, each trying 3 messages at once.
  const started = Date.now();
  let accepted = 0;
  const refused: string[] = [];
  for (let i = 0; i < 30; i++) {
    await flooder.room.leave(true);
    flooder = await spectator('v4', room.code, 'flood');
    const r = await burst(flooder, 'spectators', [`r${i}a`, `r${i}b`, `r${i}c`]);
    accepted += r.accepted;
    refused.push(...r.refused);
  }
  // The bucket followed the address: only what the elapsed time refilled got through (without
  // the limit key, every rejoin would have had a fresh burst: 90 messages).
  const elapsedSeconds = (Date.now() - started) / 1000;
  expect(accepted).toBeLessThanOrEqual(Math.ceil(elapsedSeconds) + 1);
  expect(refused.length).toBe(90 - accepted);
  expect(new Set(refused)).toEqual(new Set(['rate_limited']));

  // Legitimate clients: the players talk and play, a spectator from another address talks.
  const [R, Y] = ['R', 'Y'].map(room.by);
  await sendAndWait(R, 'press_send', { channel: 'table', text: 'still here' }, Y, 'press_message');
  await playOne(room.players, [R, Y, flooder], 1);
  if (ipv6) {
    const legit = await spectator('v6', room.code, 'legit');
    expect(await burst(legit, 'spectators', ['hello', 'everyone'])).toEqual({ accepted: 2, refused: [] });
    await leaveAll([legit]);
  }
  await leaveAll([...room.all, flooder]);
});

test('the author cap holds across rejoins; a late spectator gets a small history and pages the rest', async () => {
  const room = await pressRoom(server, { rules: { players: 2 } }, 0);
  const [R, Y] = ['R', 'Y'].map(room.by);
  await sendAndWait(R, 'press_open', { members: ['Y'] }, Y, 'press_channel');
  await sendAndWait(R, 'press_send', { channel: 'dm:RY', text: 'between us' }, Y, 'press_message');

  // The flood: as many messages as one author may post, 5 at a time on the server's clock.
  let flooder = await spectator('v4', room.code, 'flood');
  for (let i = 0; i < AUTHOR_CAP_SPECTATORS; i += RATE_BURST) {
    clock.advance(RATE_BURST * 1000);
    const texts = Array.from({ length: RATE_BURST }, (_, k) => text(i + k + 1));
    expect(await burst(flooder, 'spectators', texts)).toEqual({ accepted: RATE_BURST, refused: [] });
  }
  clock.advance(10_000);
  expect(await burst(flooder, 'spectators', ['one more'])).toEqual({ accepted: 0, refused: ['author_limit'] });
  for (let i = 0; i < 3; i++) {
    await flooder.room.leave(true);
    flooder = await spectator('v4', room.code, 'flood');
    expect(await burst(flooder, 'spectators', [`back ${i}`])).toEqual({ accepted: 0, refused: ['author_limit'] });
  }
  // The channel is still open to everyone else.
  let total = AUTHOR_CAP_SPECTATORS;
  if (ipv6) {
    const legit = await spectator('v6', room.code, 'legit');
    expect(await burst(legit, 'spectators', ['still open'])).toEqual({ accepted: 1, refused: [] });
    total++;
    await leaveAll([legit]);
  }

  // A late spectator: the latest messages only, a small frame, and "more".
  const late = await spectator('v4', room.code, 'late');
  const history = late.received('press_history')[0];
  const channel = history.channels.find((c: Msg) => c.id === 'spectators');
  expect(channel.messages.map((m: Msg) => m.id)).toEqual(Array.from({ length: HISTORY_MESSAGES }, (_, i) => total - HISTORY_MESSAGES + 1 + i));
  expect(channel.more).toBe(true);
  expect(bytes(history)).toBeLessThan(16 * 1024); // all 300 would be over 50 KB
  expect(bytes(history)).toBeLessThan(bytes(channel.messages[0]) * (HISTORY_MESSAGES + 10));

  // It pages back to the first message: contiguous, newest page first, each to it alone.
  let oldest = channel.messages[0].id as number;
  const seen: number[] = channel.messages.map((m: Msg) => m.id);
  for (let more = true; more; ) {
    clock.advance(1000);
    const { page, rejected } = await askPage(late, { channel: 'spectators', before: oldest, limit: MAX_PAGE_MESSAGES });
    expect(rejected).toBeUndefined();
    expect(page.channel).toBe('spectators');
    expect(page.messages.length).toBeLessThanOrEqual(MAX_PAGE_MESSAGES);
    expect(page.messages[page.messages.length - 1].id).toBe(oldest - 1);
    seen.unshift(...page.messages.map((m: Msg) => m.id));
    oldest = page.messages[0].id;
    more = page.more;
  }
  expect(seen).toEqual(Array.from({ length: total }, (_, i) => i + 1));
  for (const c of [R, Y, flooder]) expect(c.received('press_page')).toEqual([]);

  // Never another channel: the players' private channel answers not_member, as for any non-member.
  clock.advance(10_000);
  expect((await askPage(late, { channel: 'dm:RY', before: 10 })).rejected).toMatchObject({ type: 'press_page', code: 'not_member' });
  expect(JSON.stringify(late.messages)).not.toContain('between us');
  // Paging has a rate limit of its own.
  const n = late.received('press_page').length;
  for (let i = 0; i < PAGE_BURST + 2; i++) late.room.send('press_page', { channel: 'spectators', before: 100, limit: 1 });
  await late.waitState(
    () => late.received('press_page').length - n + late.received('rejected').filter((r: Msg) => r.code === 'rate_limited').length >= PAGE_BURST + 2,
    'page answers',
  );
  expect(late.received('press_page').length - n).toBe(PAGE_BURST);
  expect(late.received('rejected').filter((r: Msg) => r.type === 'press_page' && r.code === 'rate_limited').length).toBeGreaterThanOrEqual(2);

  // The players still talk and play.
  await sendAndWait(Y, 'press_send', { channel: 'table', text: 'we are fine' }, R, 'press_message');
  await playOne(room.players, [R, Y, late], 2);
  await leaveAll([...room.all, flooder, late]);
});

test('the reveal after the game is bounded too, and revealed channels can be paged by everyone', async () => {
  const room = await pressRoom(server, { rules: { players: 2 } }, 0);
  const [R, Y] = ['R', 'Y'].map(room.by);
  await sendAndWait(R, 'press_open', { members: ['Y'] }, Y, 'press_channel');
  for (let i = 0; i < 80; i += RATE_BURST) {
    clock.advance(RATE_BURST * 1000);
    expect(
      await burst(
        R,
        'dm:RY',
        Array.from({ length: RATE_BURST }, (_, k) => `secret ${i + k + 1}`),
      ),
    ).toEqual({ accepted: RATE_BURST, refused: [] });
  }
  const watcher = await spectator('v4', room.code, 'watcher');
  clock.advance(10_000);
  await sendAndWait(R, 'draw_offer', {}, Y, 'draw');
  Y.room.send('draw_accept', {});
  await watcher.waitMessage('press_reveal');
  const reveal = watcher.received('press_reveal')[0];
  const dm = reveal.timeline.filter((i: Msg) => i.kind === 'message' && i.channel === 'dm:RY');
  expect(dm.map((m: Msg) => m.id)).toEqual(Array.from({ length: HISTORY_MESSAGES }, (_, i) => 80 - HISTORY_MESSAGES + 1 + i));
  expect(reveal.channels.find((c: Msg) => c.id === 'dm:RY')).toMatchObject({ more: true });
  expect(bytes(reveal)).toBeLessThan(16 * 1024);
  // The watcher was never in dm:RY; after the game it may page it, as it was revealed.
  const { page } = await askPage(watcher, { channel: 'dm:RY', before: dm[0].id });
  expect(page.messages.map((m: Msg) => m.text)).toEqual(Array.from({ length: 80 - HISTORY_MESSAGES }, (_, i) => `secret ${i + 1}`));
  expect(page.more).toBe(false);
  // A spectator joining now finds the same bounded reveal in its history.
  const late = await spectator('v4', room.code, 'late');
  expect(late.received('press_history')[0].reveal).toEqual(reveal);
  await leaveAll([...room.all, watcher, late]);
});
