/**
 * The result screen's model, without a browser: the winner or the draw, the ranking with how and
 * on which move each player went out (a flag fall reads as "time", not "resigned"), the pacts
 * that came into force and the betrayals in one list in game order, and what the viewer may do
 * about the rematch (offer, answer, wait, nothing for spectators).
 */
import type { Betrayal, PactView, RematchStateMessage } from '@djambi/shared';
import { readSnapshot } from '../../client/src/game/snapshot.js';
import { resultEn } from '../../client/src/i18n/result.js';
import { pactsOf, resultModel } from '../../client/src/ui/resultView.js';

const seat = (colour: string, name: string) => ({ colour, name, taken: true, presence: 'connected' });
const seats = { R: seat('R', 'Ann'), B: seat('B', 'Bo'), Y: seat('Y', 'Cy'), G: seat('G', 'Di') };

const over = readSnapshot({
  code: 'ABCD',
  phase: 'over',
  rules: { players: 4 },
  seats,
  moves: ['R a1b2', 'B timeout', 'Y resign', 'G c3d4'],
  eliminations: [
    { colour: 'B', cause: 'resigned', by: '', ply: 1 },
    { colour: 'Y', cause: 'resigned', by: '', ply: 2 },
    { colour: 'R', cause: 'killed', by: 'G', ply: 3 },
  ],
  result: { kind: 'win', winner: 'G', reason: '', ranking: ['G', 'R', 'BY'] },
});

const pact = (over: Partial<PactView>): PactView => ({
  id: 'p1',
  proposer: 'R',
  members: ['R', 'G'],
  rounds: null,
  announced: true,
  status: 'ended',
  accepted: ['R', 'G'],
  standing: [],
  turnsLeft: null,
  roundsLeft: null,
  broken: true,
  proposedPly: 0,
  inForcePly: 0,
  endedPly: 3,
  endReason: 'betrayed',
  ...over,
});
const betrayal: Betrayal = { pactId: 'p1', traitor: 'G', victim: 'R', ply: 3, turnText: 'c3d4', acts: ['kill_chief'] as never, at: 0 };
const noPress = { pacts: [], betrayals: [] };

test('the winner, and the ranking with how and when each player went out', () => {
  const m = resultModel(over, null, noPress, null)!;
  expect(m.winner).toBe('G');
  expect(m.draw).toBeNull();
  expect(m.ranking).toEqual([
    { rank: 1, colour: 'G', name: 'Di', how: 'winner', by: null, move: null },
    { rank: 2, colour: 'R', name: 'Ann', how: 'killed', by: 'G', move: 4 },
    { rank: 3, colour: 'B', name: 'Bo', how: 'time', by: null, move: 2 },
    { rank: 3, colour: 'Y', name: 'Cy', how: 'resigned', by: null, move: 3 },
  ]);
  expect(resultEn.how('killed', 'Di', 4)).toBe('chief killed by Di on move 4');
  expect(resultEn.how('time', null, 2)).toBe('out of time on move 2');
  // The winner is named once: the colour is the swatch beside the name, not a second name (issue 40, bug 11).
  expect(resultEn.win('Di')).toBe('Di wins');
  expect(resultEn.win('Green (bot, hard)')).toBe('Green (bot, hard) wins');
});

test('nothing while the game goes on; a draw says why', () => {
  expect(resultModel(readSnapshot({ phase: 'playing', seats }), 'R', noPress, null)).toBeNull();
  const draw = readSnapshot({ phase: 'over', seats, result: { kind: 'draw', winner: '', reason: 'agreement', ranking: ['RBYG'] } });
  const m = resultModel(draw, 'R', noPress, null)!;
  expect(m.winner).toBeNull();
  expect(m.draw).toBe('agreement');
  expect(m.ranking.map((l) => [l.rank, l.how])).toEqual([
    [1, 'survivor'],
    [1, 'survivor'],
    [1, 'survivor'],
    [1, 'survivor'],
  ]);
  expect(resultEn.draw('agreement')).toBe('Draw: agreed by the players');
});

test('pacts in force and betrayals in one list, in game order; proposals never in force are left out', () => {
  const press = {
    pacts: [pact({ id: 'p2', inForcePly: 2, endedPly: null, endReason: null, members: ['B', 'Y'] }), pact({}), pact({ id: 'p3', inForcePly: null })],
    betrayals: [betrayal],
  };
  const m = resultModel(over, 'R', press, null)!;
  expect(m.pacts).toEqual([
    { kind: 'pact', members: ['R', 'G'], from: 1, to: 4, end: 'betrayed' },
    { kind: 'pact', members: ['B', 'Y'], from: 3, to: null, end: null },
    { kind: 'betrayal', traitor: 'G', victim: 'R', move: 4, turn: 'c3d4' },
  ]);
  expect(resultEn.betrayal('Di', 'Ann', 4, 'c3d4')).toBe('Di betrayed Ann on move 4 (c3d4)');
  // The reveal, once it came, is the source; before it, what the viewer saw.
  const reveal = { conversations: true, channels: [], timeline: [], pacts: [pact({})], betrayals: [betrayal] };
  expect(pactsOf({ reveal, betrayals: [], pactGroups: () => ({ invitations: [], waiting: [], inForce: [], ended: [] }) }).pacts).toHaveLength(1);
  expect(
    pactsOf({
      reveal: null,
      betrayals: [betrayal],
      pactGroups: () => ({ invitations: [], waiting: [], inForce: [pact({ id: 'a' })], ended: [pact({ id: 'b' })] }),
    }),
  ).toEqual({
    pacts: [pact({ id: 'a' }), pact({ id: 'b' })],
    betrayals: [betrayal],
  });
});

test('the rematch choice: offer, answer, wait; spectators only watch', () => {
  const state = (o: Partial<RematchStateMessage>): RematchStateMessage => ({
    status: 'open',
    by: 'R',
    asked: ['R', 'B', 'Y', 'G'],
    accepted: ['R'],
    declined: [],
    deadline: 0,
    code: null,
    open: [],
    ...o,
  });
  expect(resultModel(over, 'B', noPress, null)!.choice).toBe('offer');
  expect(resultModel(over, null, noPress, null)!.choice).toBe('none');
  expect(resultModel(over, null, noPress, state({}))!.choice).toBe('none');
  expect(resultModel(over, 'B', noPress, state({}))!.choice).toBe('answer');
  expect(resultModel(over, 'B', noPress, state({ declined: ['B'] }))!.choice).toBe('answer');
  expect(resultModel(over, 'R', noPress, state({}))!.choice).toBe('accepted');
  expect(resultModel(over, 'R', noPress, state({ status: 'created', code: 'WXYZ' }))!.choice).toBe('accepted');
  expect(resultModel(over, 'B', noPress, state({ status: 'created', code: 'WXYZ' }))!.choice).toBe('none');
  expect(resultModel(over, 'B', noPress, state({ status: 'cancelled', accepted: [] }))!.choice).toBe('offer');
});
