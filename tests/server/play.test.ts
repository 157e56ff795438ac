/** Play features beyond turns: resignation, draw offers, clocks and time-outs, renaming. */
import { fullRoom, holder, leaveAll, quietSdkWarnings, randomTurnFor, seeded, serverForTests, type State } from './helpers.js';

quietSdkWarnings();
const server = serverForTests();

async function started(options: Record<string, unknown>, spectators = 0) {
  const room = await fullRoom(server(), options, spectators);
  room.players[0].room.send('start');
  await Promise.all(room.all.map((c) => c.waitState((s) => s.phase === 'playing', 'start')));
  return room;
}

test('resigning out of turn eliminates the player; the player to move keeps the turn', async () => {
  const room = await started({ rules: { players: 4 } }, 1);
  const spec = room.spectators[0];
  holder(room.players, 'B').room.send('resign');
  await spec.waitState((s) => s.version === 1, 'resignation');
  const s = spec.state;
  expect(s.toMove).toBe('R');
  expect(s.active.toArray()).toEqual(['R', 'Y', 'G']);
  expect(s.seats.get('B').active).toBe(false);
  expect(s.eliminations.toArray().map((e: State) => e.toJSON())).toEqual([{ colour: 'B', cause: 'resigned', by: '', ply: 0 }]);
  expect(s.moves.toArray()).toEqual(['B resign']);
  // An eliminated player can no longer act.
  const b = holder(room.players, 'B');
  expect((await b.sendExpectRejected('resign')).code).toBe('not_active');
  expect((await b.sendExpectRejected('draw_offer')).code).toBe('not_active');
  await leaveAll(room.all);
});

test('a draw offer passes when every active player accepts, and lapses on a refusal or a turn', async () => {
  const room = await started({ rules: { players: 3 } }, 1);
  const [r, b, y] = ['R', 'B', 'Y'].map((c) => holder(room.players, c));
  const spec = room.spectators[0];

  expect((await b.sendExpectRejected('draw_accept')).code).toBe('no_draw_offer');
  r.room.send('draw_offer');
  await spec.waitState((s) => s.drawOffer.by === 'R' && s.drawOffer.accepted === 'R', 'offer open');
  expect((await b.sendExpectRejected('draw_offer')).code).toBe('draw_offer_open');
  b.room.send('draw_accept');
  await spec.waitState((s) => s.drawOffer.accepted === 'RB', 'B accepted');
  y.room.send('draw_decline');
  await spec.waitState((s) => s.drawOffer.by === '' && s.drawOffer.accepted === '', 'declined');

  // A turn played cancels an open offer.
  b.room.send('draw_offer');
  await spec.waitState((s) => s.drawOffer.by === 'B', 'second offer');
  r.room.send('turn', randomTurnFor(r.state, seeded(5)));
  await spec.waitState((s) => s.version === 1 && s.drawOffer.by === '', 'offer lapsed with the turn');

  // Everybody accepts: the game is drawn by agreement.
  y.room.send('draw_offer');
  await spec.waitState((s) => s.drawOffer.by === 'Y', 'third offer');
  r.room.send('draw_accept');
  b.room.send('draw_accept');
  await spec.waitState((s) => s.phase === 'over', 'drawn');
  expect(spec.state.result.toJSON()).toMatchObject({ kind: 'draw', reason: 'agreement' });
  expect(spec.state.moves.at(spec.state.moves.length - 1)).toBe('draw');
  await leaveAll(room.all);
});

test('clocks: the mover is charged and gets the increment; running out of time resigns', async () => {
  const room = await started({ rules: { players: 2 }, clock: { initialSeconds: 1.5, incrementSeconds: 2 } }, 1);
  const spec = room.spectators[0];
  const [r] = room.players;
  const s0 = spec.state;
  expect(s0.clock.toJSON()).toMatchObject({ enabled: true, initialMs: 1500, incrementMs: 2000, running: 'R' });
  expect(s0.clock.turnStartedAt).toBeGreaterThan(0);
  expect(s0.seats.get('R').clockMs).toBe(1500);

  r.room.send('turn', randomTurnFor(r.state, seeded(9)));
  await spec.waitState((s) => s.version >= 1 && s.clock.running === 'Y', 'Y to move');
  const rLeft = spec.state.seats.get('R').clockMs;
  expect(rLeft).toBeGreaterThan(2000); // 1.5 s minus the thinking time plus 2 s
  expect(rLeft).toBeLessThanOrEqual(3500);
  expect(spec.state.seats.get('Y').clockMs).toBe(1500);

  // Yellow does not move: its flag falls after 1.5 s, which is a resignation.
  await spec.waitState((s) => s.phase === 'over', 'time-out', 5000);
  const s = spec.state;
  expect(s.result.toJSON()).toMatchObject({ kind: 'win', winner: 'R' });
  expect(s.moves.at(s.moves.length - 1)).toBe('Y timeout');
  expect(s.seats.get('Y').clockMs).toBe(0);
  expect(s.clock.running).toBe('');
  await leaveAll(room.all);
});

test('renaming a seat', async () => {
  const room = await fullRoom(server(), { rules: { players: 2 } }, 1);
  const [a] = room.players;
  a.room.send('name', { name: '  Niccolò  ' });
  await room.spectators[0].waitState((s) => s.seats.get('R').name === 'Niccolò', 'renamed');
  expect((await a.sendExpectRejected('name', { name: '' })).code).toBe('bad_payload');
  expect((await a.sendExpectRejected('name', { name: 'n'.repeat(25) })).code).toBe('bad_payload');
  // A spectator renames itself (its name shows in the seat panel's list).
  room.spectators[0].room.send('name', { name: 'spy' });
  await a.waitState((s) => s.spectatorNames.includes('spy'), 'spectator renamed');
  await leaveAll(room.all);
});
