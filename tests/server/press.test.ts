/**
 * Negotiation through the real server: privacy of private and group talk and of secret pacts
 * (a spectator and a non-member player record everything they receive), betrayal records and
 * who hears of them, the after-game reveal, and the `existence` and `reveal_press_after_game`
 * room options.
 */
import { parseRules, type Rules } from '@djambi/shared';
import type { RunningServer } from '../../server/src/app.js';
import { leaveAll, quietSdkWarnings, waitClients, type TestClient, checkRestores } from './helpers.js';
import { joinRecording, planKill, playPlanned, pressRoom, sendAndWait, startPressServer, type RecordingClient } from './pressHelpers.js';
import { TestClock } from '../support/clock.js';

quietSdkWarnings();
const clock = TestClock.following();
let server: RunningServer;
beforeAll(async () => {
  server = await startPressServer(clock);
});
afterAll(async () => {
  await server.close();
});

type Msg = any; // eslint-disable-line @typescript-eslint/no-explicit-any

function rules(players: 2 | 3 | 4): Rules {
  const r = parseRules({ players });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** Sends a table message from `from` and waits until every client in `to` has it (an ordering barrier). */
async function barrier(from: TestClient, to: TestClient[], text: string): Promise<void> {
  const counts = to.map((c) => c.received('press_message').length);
  from.room.send('press_send', { channel: 'table', text });
  await waitClients(
    [from, ...to],
    () => {
      const rejected = from.received('rejected');
      if (rejected.some((r: Msg) => r.type === 'press_send')) throw new Error(`barrier refused: ${JSON.stringify(rejected)}`);
      return to.every((c, i) =>
        c
          .received('press_message')
          .slice(counts[i])
          .some((m: Msg) => m.message.text === text),
      );
    },
    `barrier "${text}"`,
  );
}

/** Ends a started game by a draw every active player accepts; waits for the reveal everywhere. */
async function drawGame(active: TestClient[], all: TestClient[]): Promise<void> {
  const reveals = all.map((c) => c.received('press_reveal').length);
  const offer = await sendAndWait(active[0], 'draw_offer', {}, active[1], 'draw');
  for (const c of active.slice(1)) c.room.send('draw_accept', { offer: offer.offer.id });
  await waitClients(all, () => all.every((c, i) => c.received('press_reveal').length > reveals[i] && c.state.phase === 'over'), 'reveal after the draw');
}

test('privacy: a spectator and a non-member player receive nothing of private and group talk or of a secret pact', async () => {
  const room = await pressRoom(server, { rules: { players: 4 } }, 1, false);
  const [R, B, Y, G] = ['R', 'B', 'Y', 'G'].map(room.by);
  const S = room.spectators[0];
  const outsiders: RecordingClient[] = [G, S];

  // Table talk before the start reaches everyone.
  await barrier(R, room.all, 'hello table');
  R.room.send('start');
  await Promise.all(room.all.map((c) => c.waitState((s) => s.phase === 'playing')));

  // Private talk, a group, a secret pact and read marks. Nothing of it may reach G or S.
  const mark = outsiders.map((c) => ({ messages: c.messages.length, states: c.states.length }));
  const dm = (await sendAndWait(R, 'press_open', { members: ['B'] }, B, 'press_channel')).channel;
  expect(dm).toMatchObject({ id: 'dm:RB', kind: 'private', members: ['R', 'B'], openedBy: 'R' });
  await sendAndWait(R, 'press_send', { channel: 'dm:RB', text: 'SECRET-dm-1: shall we take Green?' }, B, 'press_message');
  await sendAndWait(B, 'press_send', { channel: 'dm:RB', text: 'SECRET-dm-2 yes' }, R, 'press_message');
  const group = (await sendAndWait(R, 'press_open', { members: ['B', 'Y'] }, Y, 'press_channel')).channel;
  expect(group.id).toBe('group:RBY');
  await sendAndWait(Y, 'press_send', { channel: 'group:RBY', text: 'SECRET-group-1 count me in' }, B, 'press_message');
  clock.advance(10_000); // refill the senders' rate-limit buckets
  const proposed = await sendAndWait(R, 'pact_propose', { with: ['B'] }, B, 'pact');
  const pactId: string = proposed.pact.id;
  expect(proposed).toMatchObject({ event: 'proposed', by: 'R', pact: { members: ['R', 'B'], announced: false, status: 'proposed' } });
  const inForce = await sendAndWait(B, 'pact_accept', { pact: pactId }, R, 'pact');
  expect(inForce).toMatchObject({ event: 'in_force', pact: { id: pactId, status: 'in_force', standing: ['R', 'B'] } });
  expect(await sendAndWait(B, 'press_read', { channel: 'dm:RB', upTo: 1 }, B, 'press_unread')).toEqual({ channel: 'dm:RB', readUpTo: 1, unread: 0 });
  expect(await sendAndWait(R, 'press_read', { channel: 'dm:RB', upTo: 0 }, R, 'press_unread')).toEqual({ channel: 'dm:RB', readUpTo: 0, unread: 1 });

  // Barrier: Y's table message is processed after all of the above. Until it, G and S got
  // nothing at all: no message, not even a state patch.
  await barrier(Y, room.all, 'barrier one');
  outsiders.forEach((c, i) => {
    expect(c.messages.slice(mark[i].messages).map((m) => m.type)).toEqual(['press_message']);
    expect(c.states.length).toBe(mark[i].states);
  });

  // A scripted game: quiet turns, more private talk on the way, then R kills one of B's pieces.
  const plan = planKill(rules(4), 'R', 'B', 3);
  await playPlanned(room.players, room.all, plan.quiet.slice(0, 2));
  clock.advance(10_000);
  await sendAndWait(R, 'press_send', { channel: 'dm:RB', text: 'SECRET-dm-3 after two turns' }, B, 'press_message');
  await sendAndWait(B, 'press_send', { channel: 'group:RBY', text: 'SECRET-group-2' }, Y, 'press_message');
  await sendAndWait(S, 'press_send', { channel: 'spectators', text: 'spectators only' }, S, 'press_message');
  await playPlanned(room.players, room.all, plan.quiet.slice(2));
  const betrayalsBefore = [R, B].map((c) => c.received('betrayal').length);
  await playPlanned(room.players, room.all, [plan.kill]);
  await waitClients([R, B], () => R.received('betrayal').length > betrayalsBefore[0] && B.received('betrayal').length > betrayalsBefore[1], 'betrayal');
  await barrier(Y, room.all, 'barrier two');

  // Exactly one betrayal record, to the pact's members and to no one else.
  for (const c of [R, B]) {
    expect(c.received('betrayal')).toEqual([
      {
        betrayal: { pactId, traitor: 'R', victim: 'B', ply: plan.kill.ply, turnText: plan.kill.text, acts: expect.any(Array), at: expect.any(Number) },
        pact: expect.objectContaining({ id: pactId, broken: true, standing: ['B'], status: 'ended', endReason: 'betrayed' }),
      },
    ]);
  }
  for (const c of [Y, G, S]) expect(c.received('betrayal')).toEqual([]);

  // What G and S received (messages, every decoded state, every raw frame) holds nothing private.
  const secrets = ['SECRET', 'dm:', 'group:', pactId, 'shall we', 'count me in'];
  for (const c of outsiders) {
    const seen = c.everything();
    // Positive controls: the recordings do hold the public talk and the moves.
    for (const where of [seen.messages, seen.frames]) expect(where).toContain('barrier two');
    expect(seen.states).toContain(plan.kill.text);
    for (const secret of secrets) {
      expect({ who: c === G ? 'G' : 'S', secret, inMessages: seen.messages.includes(secret) }).toMatchObject({ inMessages: false });
      expect({ who: c === G ? 'G' : 'S', secret, inStates: seen.states.includes(secret) }).toMatchObject({ inStates: false });
      expect({ who: c === G ? 'G' : 'S', secret, inFrames: seen.frames.includes(secret) }).toMatchObject({ inFrames: false });
    }
    // No member set, opener or other channel's metadata anywhere.
    expect(seen.messages).not.toContain('"members":[');
    expect(seen.messages).not.toContain('"openedBy":"');
    expect(c.received('press_channel')).toEqual([]);
    expect(c.received('press_exists')).toEqual([]);
    expect(c.received('pact')).toEqual([]);
    expect(c.received('press_unread')).toEqual([]);
    expect(c.received('rejected')).toEqual([]);
    const types = new Set(c.messages.map((m) => m.type));
    for (const t of types) expect(['seat', 'press_history', 'press_message', 'played']).toContain(t);
    // Table ids count within the table: no gap betrays the private traffic in between.
    const table = c.received('press_message').filter((m: Msg) => m.message.channel === 'table');
    expect(table.map((m: Msg) => m.message.id)).toEqual(table.map((_: Msg, i: number) => i + 1));
    // Histories show only what the member may read: no channel list, pact or count of others.
    for (const h of c.received('press_history')) {
      expect(h.channels.map((ch: Msg) => ch.id)).toEqual(c === S ? ['table', 'spectators'] : ['table']);
      expect(h.existing).toEqual([]);
      expect(h.pacts).toEqual([]);
      expect(h.betrayals).toEqual([]);
    }
  }
  // G is an active player: it does not read the spectators' channel.
  expect(G.received('press_message').map((m: Msg) => m.message.channel)).not.toContain('spectators');
  expect(
    S.received('press_message')
      .filter((m: Msg) => m.message.channel === 'spectators')
      .map((m: Msg) => m.message.text),
  ).toEqual(['spectators only']);
  // Y is in the group but neither in the private channel nor in the pact.
  const ySeen = JSON.stringify(Y.messages) + Y.states.join('');
  for (const secret of ['dm:RB', 'SECRET-dm', pactId]) expect(ySeen).not.toContain(secret);
  expect(
    Y.received('press_message')
      .filter((m: Msg) => m.message.channel === 'group:RBY')
      .map((m: Msg) => m.message.text),
  ).toEqual(['SECRET-group-1 count me in', 'SECRET-group-2']);
  // The state never carries anything of the press but the public draw offer and the room options.
  const state = JSON.parse(G.states[G.states.length - 1]);
  expect(state).toMatchObject({ press_visibility: 'hidden', reveal_press_after_game: true, drawOffer: { id: 0, by: '', accepted: '' } });

  // After the game, everything is revealed to everyone who played or watched.
  await drawGame([R, B, Y, G], room.all);
  for (const c of room.all) {
    expect(c.received('press_reveal')).toHaveLength(1);
    const reveal = c.received('press_reveal')[0];
    expect(reveal.conversations).toBe(true);
    expect(reveal.betrayals).toHaveLength(1);
    expect(reveal.betrayals[0]).toMatchObject({ pactId, traitor: 'R', victim: 'B', ply: plan.kill.ply });
    expect(reveal.pacts.map((p: Msg) => p.id)).toEqual([pactId]);
    expect(reveal.channels.map((ch: Msg) => ch.id).sort()).toEqual(['dm:RB', 'group:RBY', 'spectators', 'table']);
    const texts = reveal.timeline.filter((i: Msg) => i.kind === 'message').map((i: Msg) => i.text);
    expect(texts).toEqual(
      expect.arrayContaining(['SECRET-dm-1: shall we take Green?', 'SECRET-dm-3 after two turns', 'SECRET-group-2', 'spectators only', 'hello table']),
    );
    const plies = reveal.timeline.map((i: Msg) => i.ply);
    expect(plies).toEqual([...plies].sort((a, b) => a - b));
  }
  // Someone who comes to watch after the end finds the reveal in its history.
  const late = await joinRecording(server, room.code, { spectate: true });
  const history = await late.waitMessage('press_history');
  expect(history.phase).toBe('over');
  expect(history.reveal.betrayals).toHaveLength(1);
  expect(history.reveal.timeline.length).toBe(room.all[0].received('press_reveal')[0].timeline.length);
  await leaveAll([...room.all, late]);
});

test('an announced pact: the betrayal goes to every seat and spectator, once', async () => {
  const room = await pressRoom(server, { rules: { players: 4 } }, 1);
  const [R, B] = ['R', 'B'].map(room.by);
  const proposed = await sendAndWait(R, 'pact_propose', { with: ['B'], announce: true }, B, 'pact');
  // The proposal stays among the members; the table hears of the pact once it is in force.
  const S = room.spectators[0];
  const inForce = await sendAndWait(B, 'pact_accept', { pact: proposed.pact.id }, S, 'pact');
  expect(inForce).toMatchObject({ event: 'in_force', pact: { id: proposed.pact.id, announced: true, members: ['R', 'B'] } });
  for (const c of room.all) expect(c.received('pact').map((p: Msg) => p.event)).toEqual(c === R || c === B ? ['proposed', 'in_force'] : ['in_force']);

  const plan = planKill(rules(4), 'R', 'B', 5);
  await playPlanned(room.players, room.all, [...plan.quiet, plan.kill]);
  await waitClients(room.all, () => room.all.every((c) => c.received('betrayal').length > 0), 'betrayal everywhere');
  await barrier(room.by('Y'), room.all, 'after the kill');
  for (const c of room.all) {
    expect(c.received('betrayal')).toHaveLength(1);
    expect(c.received('betrayal')[0].betrayal).toMatchObject({
      pactId: proposed.pact.id,
      traitor: 'R',
      victim: 'B',
      ply: plan.kill.ply,
      turnText: plan.kill.text,
    });
  }
  await leaveAll(room.all);
});

test('leaving the pact before the attack: no betrayal', async () => {
  const room = await pressRoom(server, { rules: { players: 4 } }, 1);
  const [R, B, Y, G] = ['R', 'B', 'Y', 'G'].map(room.by);
  const proposed = await sendAndWait(R, 'pact_propose', { with: ['B'] }, B, 'pact');
  const pactId = proposed.pact.id;
  await sendAndWait(B, 'pact_accept', { pact: pactId }, R, 'pact');
  const plan = planKill(rules(4), 'R', 'B', 7);
  await playPlanned(room.players, room.all, plan.quiet);
  const left = await sendAndWait(B, 'pact_leave', { pact: pactId }, R, 'pact');
  expect(left).toMatchObject({ event: 'left', by: 'B', pact: { status: 'ended', endReason: 'left', standing: ['R'] } });
  await playPlanned(room.players, room.all, [plan.kill]);
  await barrier(Y, room.all, 'after the kill');
  for (const c of room.all) expect(c.received('betrayal')).toEqual([]);

  await drawGame([R, B, Y, G], room.all);
  const reveal = room.spectators[0].received('press_reveal')[0];
  expect(reveal.betrayals).toEqual([]);
  expect(reveal.pacts).toEqual([expect.objectContaining({ id: pactId, broken: false, endReason: 'left' })]);
  await leaveAll(room.all);
});

test('an eliminated player reads its channels, writes on table and spectators, and gets the reveal', async () => {
  const room = await pressRoom(server, { rules: { players: 3 } }, 1);
  const [R, B, Y] = ['R', 'B', 'Y'].map(room.by);
  const S = room.spectators[0];
  await sendAndWait(R, 'press_open', { members: ['B'] }, B, 'press_channel');
  await sendAndWait(R, 'press_send', { channel: 'dm:RB', text: 'before you go' }, B, 'press_message');
  await sendAndWait(S, 'press_send', { channel: 'spectators', text: 'watching' }, S, 'press_message');
  // B resigns: it gets its new history at once (it now reads the spectators' channel).
  const histories = B.received('press_history').length;
  B.room.send('resign');
  await B.waitState(() => B.received('press_history').length > histories, 'history after resigning');
  const h = B.received('press_history')[histories];
  expect(h.channels.map((c: Msg) => c.id)).toEqual(['table', 'spectators', 'dm:RB']);
  expect(h.channels.find((c: Msg) => c.id === 'spectators').messages.map((m: Msg) => m.text)).toEqual(['watching']);
  expect(h.channels.find((c: Msg) => c.id === 'dm:RB').unread).toBe(1);
  await sendAndWait(B, 'press_send', { channel: 'spectators', text: 'hello watchers' }, S, 'press_message');
  await sendAndWait(B, 'press_send', { channel: 'table', text: 'good luck' }, R, 'press_message');
  expect((await B.sendExpectRejected('press_send', { channel: 'dm:RB', text: 'x' })).code).toBe('not_active');
  // R and Y, still playing, do not read the spectators' channel.
  for (const c of [R, Y]) expect(c.received('press_message').map((m: Msg) => m.message.text)).not.toContain('hello watchers');

  R.room.send('resign');
  await waitClients(room.all, () => room.all.every((c) => c.received('press_reveal').length === 1), 'reveal');
  expect(S.state.result.winner).toBe('Y');
  for (const c of room.all) {
    const texts = c
      .received('press_reveal')[0]
      .timeline.filter((i: Msg) => i.kind === 'message')
      .map((i: Msg) => i.text);
    expect(texts).toEqual(['before you go', 'watching', 'hello watchers', 'good luck']);
  }
  await leaveAll(room.all);
});

test('press_visibility "existence": non-members learn who talk together, nothing more', async () => {
  const room = await pressRoom(server, { rules: { players: 3 }, press_visibility: 'existence', visibility: 'public' }, 1);
  const [R, B, Y] = ['R', 'B', 'Y'].map(room.by);
  const S = room.spectators[0];
  expect(S.state.press_visibility).toBe('existence');
  const listing = await (await fetch(`${server.url}/api/rooms/${room.code}`)).json();
  expect(listing).toMatchObject({ press_visibility: 'existence', reveal_press_after_game: true });

  await sendAndWait(R, 'press_open', { members: ['B'] }, B, 'press_channel');
  await waitClients([Y, S], () => Y.received('press_exists').length === 1 && S.received('press_exists').length === 1, 'existence');
  for (const c of [Y, S]) expect(c.received('press_exists')).toEqual([{ channel: 'dm:RB', members: ['R', 'B'] }]);
  await sendAndWait(R, 'press_send', { channel: 'dm:RB', text: 'SECRET hidden content' }, B, 'press_message');
  await barrier(Y, room.all, 'table');
  for (const c of [Y, S] as RecordingClient[]) {
    const seen = c.everything();
    expect(seen.messages).not.toContain('SECRET');
    expect(seen.frames).not.toContain('SECRET');
    expect(c.received('press_channel')).toEqual([]);
  }
  // A spectator who comes later finds the existence in its history.
  const late = await joinRecording(server, room.code, { spectate: true });
  const history = await late.waitMessage('press_history');
  expect(history.existing).toEqual([{ channel: 'dm:RB', members: ['R', 'B'] }]);
  expect(history.channels.map((c: Msg) => c.id)).toEqual(['table', 'spectators']);
  await leaveAll([...room.all, late]);
});

test('reveal_press_after_game false: pacts and betrayals are revealed, conversations are not', async () => {
  const room = await pressRoom(server, { rules: { players: 2 }, reveal_press_after_game: false }, 1);
  const [R, Y] = ['R', 'Y'].map(room.by);
  const S = room.spectators[0];
  expect(S.state.reveal_press_after_game).toBe(false);
  await sendAndWait(R, 'press_open', { members: ['Y'] }, Y, 'press_channel');
  await sendAndWait(R, 'press_send', { channel: 'dm:RY', text: 'SECRET stays secret' }, Y, 'press_message');
  const p = await sendAndWait(R, 'pact_propose', { with: ['Y'] }, Y, 'pact');
  await sendAndWait(Y, 'pact_accept', { pact: p.pact.id }, R, 'pact');
  await sendAndWait(R, 'press_send', { channel: 'table', text: 'public words' }, S, 'press_message');
  Y.room.send('resign');
  await waitClients(room.all, () => room.all.every((c) => c.received('press_reveal').length === 1), 'reveal');
  for (const c of room.all) {
    const reveal = c.received('press_reveal')[0];
    expect(reveal.conversations).toBe(false);
    expect(reveal.channels.map((ch: Msg) => ch.id)).toEqual(['table']);
    expect(reveal.pacts.map((x: Msg) => x.id)).toEqual([p.pact.id]);
    expect(JSON.stringify(reveal)).not.toContain('SECRET');
    expect(JSON.stringify(reveal)).toContain('public words');
  }
  await leaveAll(room.all);
});

// Last: the storage seam, on every seeded game above (their rooms are still live).
test('every match this file played restores from its events to the same match', async () => {
  const { compared, mismatches } = await checkRestores();
  expect(compared).toBeGreaterThan(0);
  expect(mismatches).toEqual([]);
});

test('six seats (hex6): private and group talk reach only their members, a pact between Purple and White, a draw of all six, the reveal', async () => {
  const room = await pressRoom(server, { rules: { board: 'hex6' } }, 1);
  expect(room.players.map((p) => p.received('seat')[0].colour)).toEqual(['R', 'B', 'Y', 'G', 'P', 'W']);
  const [R, B, , G, P, W] = ['R', 'B', 'Y', 'G', 'P', 'W'].map(room.by);
  const S = room.spectators[0];
  const outsiders: RecordingClient[] = [R, B, S];
  const mark = outsiders.map((c) => c.messages.length);

  const dm = (await sendAndWait(P, 'press_open', { members: ['W'] }, W, 'press_channel')).channel;
  expect(dm).toMatchObject({ id: 'dm:PW', kind: 'private', members: ['P', 'W'] });
  await sendAndWait(P, 'press_send', { channel: 'dm:PW', text: 'SECRET-hex-1: the fortress is ours' }, W, 'press_message');
  const group = (await sendAndWait(G, 'press_open', { members: ['P', 'W'] }, W, 'press_channel')).channel;
  expect(group.id).toBe('group:GPW');
  await sendAndWait(W, 'press_send', { channel: 'group:GPW', text: 'SECRET-hex-2 three of us' }, G, 'press_message');
  clock.advance(10_000);
  const proposed = await sendAndWait(P, 'pact_propose', { with: ['W'] }, W, 'pact');
  const inForce = await sendAndWait(W, 'pact_accept', { pact: proposed.pact.id }, P, 'pact');
  expect(inForce).toMatchObject({ event: 'in_force', pact: { standing: ['P', 'W'] } });

  await barrier(G, room.all, 'hex barrier');
  outsiders.forEach((c, i) => expect(c.messages.slice(mark[i]).map((m) => m.type)).toEqual(['press_message']));
  for (const c of outsiders) expect(JSON.stringify(c.messages)).not.toContain('SECRET-hex');

  await drawGame(room.players, room.all);
  expect(S.state.result.toJSON()).toMatchObject({ kind: 'draw', reason: 'agreement' });
  const reveal = S.received('press_reveal').at(-1);
  expect(JSON.stringify(reveal)).toContain('SECRET-hex-1');
  expect(reveal.pacts.map((p: Msg) => p.id)).toEqual([proposed.pact.id]);
  await leaveAll(room.all);
});
