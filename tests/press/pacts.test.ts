/**
 * Pacts and the betrayal record, with the real engine: positions where a pact member kills,
 * displaces or encircles a fellow member's piece or chief.
 */
import { initialPosition, makeTurn, pieces, resign, type Colour, type Effect, type Position, type Turn } from '@djambi/shared';
import { Press, hostileActs, type Betrayal, type PactView } from '../../server/src/press/index.js';
import { Inbox, counterIds, findTurn, ok, position, quietTurn, refused, type Played } from './helpers.js';

const EVERYONE = ['R', 'B', 'Y', 'G', 'spec'];

function game(pos: Position = initialPosition()) {
  const press = new Press({ seats: ['R', 'B', 'Y', 'G'], newId: counterIds() });
  const inbox = new Inbox();
  press.addSpectator('spec');
  press.start(pos);
  return { press, inbox };
}

/** Proposes a pact from `from` to `to` and has everyone accept; returns its id. */
function pact(press: Press, inbox: Inbox, from: Colour, to: Colour[], extra: { announce?: boolean; rounds?: number } = {}, now = 0): string {
  const d = ok(press, inbox, from, 'pact_propose', { with: to, ...extra }, now);
  const id = (d[0].payload as { pact: PactView }).pact.id;
  for (const c of to) ok(press, inbox, c, 'pact_accept', { pact: id }, now);
  return id;
}

/** Hands a played turn to the press, as the room does. */
function turn(press: Press, inbox: Inbox, t: Played, now = 0) {
  const d = press.afterTurn(t.before, t.after, t.effects, t.mover, t.before.ply, now, makeTurn(t.turn, t.before));
  inbox.take(d);
  return d;
}

const killsColour = (pos: Position, colour: Colour, from?: string) => (fx: Effect[], t: Turn) =>
  (from === undefined || ('from' in t && t.from === from)) && fx.some((e) => e.type === 'kill' && e.by >= 0 && pieces(pos)[e.piece].colour === colour);

const betrayalsOf = (inbox: Inbox, member: string) =>
  inbox
    .of(member)
    .filter((m) => m.type === 'betrayal')
    .map((m) => (m.payload as { betrayal: Betrayal }).betrayal);

// Red's militant on e2 next to Blue's militant on e3; Yellow's reporter can kill Blue's too.
const KILL = 'Rc a9, Bc i9, Yc i1, Gc a1, Rm e2, Bm e3, Bm h5, Ym g5';

describe('betrayal: a pact member kills a fellow member’s piece', () => {
  test('exactly one betrayal record, delivered to the members only', () => {
    const pos = position(KILL, { ply: 12 });
    const { press, inbox } = game(pos);
    const id = pact(press, inbox, 'R', ['B']);
    inbox.clear();
    const t = findTurn(pos, killsColour(pos, 'B', 'e2'));
    turn(press, inbox, t, 77);
    const expected: Betrayal = { pactId: id, traitor: 'R', victim: 'B', ply: 12, turnText: makeTurn(t.turn, pos), acts: ['kill'], at: 77 };
    expect(betrayalsOf(inbox, 'R')).toEqual([expected]);
    expect(betrayalsOf(inbox, 'B')).toEqual([expected]);
    for (const m of ['Y', 'G', 'spec']) expect(inbox.of(m)).toEqual([]);
    const view = (inbox.of('B')[0].payload as { pact: PactView }).pact;
    expect(view).toMatchObject({ status: 'ended', endReason: 'betrayed', broken: true, standing: ['B'], endedPly: 12 });
    // The same turn reported again records nothing more; history shows one betrayal.
    expect(turn(press, inbox, t, 78)).toEqual([]);
    expect(press.historyFor('B').betrayals).toEqual([expected]);
    expect(press.historyFor('Y').betrayals).toEqual([]);
    expect(press.historyFor('spec').pacts).toEqual([]);
  });

  test('an announced pact: the table (players and spectators) learns of it in force and of the betrayal', () => {
    const pos = position(KILL);
    const { press, inbox } = game(pos);
    const d = ok(press, inbox, 'R', 'pact_propose', { with: ['B'], announce: true, rounds: 3 }, 0);
    expect(d.map((x) => [x.type, x.to])).toEqual([['pact', ['R', 'B']]]); // the proposal is private
    const id = (d[0].payload as { pact: PactView }).pact.id;
    const accepted = ok(press, inbox, 'B', 'pact_accept', { pact: id }, 0);
    expect(accepted.map((x) => [x.type, x.to, (x.payload as { event: string }).event])).toEqual([['pact', EVERYONE, 'in_force']]);
    // 3 rounds × 4 active players: 12 normal turns, shown as 3 rounds (one unit, issue 40 bug 12).
    expect((accepted[0].payload as { pact: PactView }).pact).toMatchObject({ turnsLeft: 12, roundsLeft: 3 });
    inbox.clear();
    turn(press, inbox, findTurn(pos, killsColour(pos, 'B', 'e2')));
    for (const m of EVERYONE) expect(betrayalsOf(inbox, m)).toHaveLength(1);
    expect(press.historyFor('spec').betrayals).toHaveLength(1);
  });

  test('leaving the pact first produces no betrayal; the members are told of the departure', () => {
    const pos = position(KILL);
    const { press, inbox } = game(pos);
    const id = pact(press, inbox, 'R', ['B']);
    inbox.clear();
    const left = ok(press, inbox, 'R', 'pact_leave', { pact: id }, 0);
    expect(left).toEqual([
      {
        to: ['R', 'B'],
        type: 'pact',
        payload: { event: 'left', by: 'R', pact: expect.objectContaining({ status: 'ended', endReason: 'left', broken: false }) },
      },
    ]);
    turn(press, inbox, findTurn(pos, killsColour(pos, 'B', 'e2')));
    for (const m of EVERYONE) expect(betrayalsOf(inbox, m)).toEqual([]);
    expect(press.pacts.allBetrayals()).toEqual([]);
    expect(refused(press, inbox, 'R', 'pact_leave', { pact: id }, 0)).toBe('pact_closed');
  });

  test('a kill by a non-member, or of a non-member’s piece, is no betrayal', () => {
    const pos = position(KILL);
    const { press, inbox } = game(pos);
    pact(press, inbox, 'R', ['G']);
    turn(press, inbox, findTurn(pos, killsColour(pos, 'B', 'e2')));
    const posY = position(KILL, { toMove: 'Y' });
    const game2 = game(posY);
    pact(game2.press, game2.inbox, 'R', ['B']);
    turn(game2.press, game2.inbox, findTurn(posY, killsColour(posY, 'B', 'g5')));
    expect([...press.pacts.allBetrayals(), ...game2.press.pacts.allBetrayals()]).toEqual([]);
  });

  test('three members: the traitor leaves the pact, which stays in force between the others', () => {
    const pos = position(KILL);
    const { press, inbox } = game(pos);
    const id = pact(press, inbox, 'R', ['B', 'Y']);
    inbox.clear();
    turn(press, inbox, findTurn(pos, killsColour(pos, 'B', 'e2')));
    for (const m of ['R', 'B', 'Y']) expect(betrayalsOf(inbox, m)).toHaveLength(1);
    expect(inbox.of('G')).toEqual([]);
    const view = press.historyFor('Y').pacts.find((p) => p.id === id)!;
    expect(view).toMatchObject({ status: 'in_force', standing: ['B', 'Y'], broken: true });
    expect(refused(press, inbox, 'R', 'pact_leave', { pact: id }, 0)).toBe('pact_closed');
  });

  test('the victim is the controller before the turn: a kill in an army a member controls counts; a frozen army does not', () => {
    // Two players: Yellow controls Green's army. Red kills a Green militant: Yellow is betrayed.
    const pos = position('Rc a9, Bc i9, Yc i1, Gc a1, Rm e2, Gm e3, Gm e4', { active: ['R', 'Y'], control: { B: 'R', G: 'Y' }, rules: { players: 2 } });
    const press = new Press({ seats: ['R', 'Y'], newId: counterIds() });
    const inbox = new Inbox();
    press.start(pos);
    pact(press, inbox, 'R', ['Y']);
    turn(press, inbox, findTurn(pos, killsColour(pos, 'G', 'e2')));
    expect(press.pacts.allBetrayals()).toMatchObject([{ traitor: 'R', victim: 'Y', acts: ['kill'] }]);
    // Green is out and its army frozen (and touchable under this rule): killing it betrays nobody.
    const frozen = position('Rc a9, Bc i9, Yc i1, gc a1, Rm e2, Gm e3, Gm e4', {
      active: ['R', 'B', 'Y'],
      control: { G: 'frozen' },
      rules: { players: 4, neutral_pieces_untouchable: false },
    });
    const g2 = game(frozen);
    pact(g2.press, g2.inbox, 'R', ['B']);
    turn(g2.press, g2.inbox, findTurn(frozen, killsColour(frozen, 'G', 'e2')));
    expect(g2.press.pacts.allBetrayals()).toEqual([]);
  });
});

describe('betrayal by diplomat and by encirclement', () => {
  test('a diplomat displacing a fellow member’s piece', () => {
    const pos = position('Rc a9, Bc i9, Yc i1, Gc a1, Rd c5, Bm f5');
    const { press, inbox } = game(pos);
    pact(press, inbox, 'R', ['B']);
    const t = findTurn(pos, (fx) => fx.some((e) => e.type === 'displace'));
    turn(press, inbox, t);
    expect(press.pacts.allBetrayals()).toMatchObject([{ traitor: 'R', victim: 'B', acts: ['displace'] }]);
  });

  test('the move that encircles a fellow member’s chief', () => {
    // RULES R-8: Red's chief walled in a corner by corpses; Blue's move completes the wall.
    const pos = position('Rc a9, rm a8, rm b8, rm b9, Bc i9, Yc i1, Gc a1, Bm e4, Bm f4', { toMove: 'B', ply: 30 });
    const { press, inbox } = game(pos);
    const id = pact(press, inbox, 'B', ['R']);
    inbox.clear();
    const t = findTurn(pos, (fx) => fx.some((e) => e.type === 'eliminated' && e.cause === 'encircled'));
    turn(press, inbox, t);
    expect(betrayalsOf(inbox, 'R')).toEqual([{ pactId: id, traitor: 'B', victim: 'R', ply: 30, turnText: makeTurn(t.turn, pos), acts: ['encircle'], at: 0 }]);
    expect(betrayalsOf(inbox, 'B')).toHaveLength(1);
    expect(inbox.types('Y')).toEqual([]);
    // Red, now out, is sent its history (it reads the spectators channel from now on).
    expect(inbox.types('R')).toEqual(['betrayal', 'press_history']);
  });

  test('hostileActs lists each victim once per act', () => {
    const pos = position(KILL);
    const t = findTurn(pos, killsColour(pos, 'B', 'e2'));
    expect([...hostileActs(pos, [...t.effects, ...t.effects], 'R')]).toEqual([['B', ['kill']]]);
    expect([...hostileActs(pos, t.effects, 'B')]).toEqual([]); // Blue "killing" its own piece is nobody's betrayal
  });
});

describe('pact lifecycle', () => {
  test('a pact for 1 round expires after as many normal turns as active players, and the members are told', () => {
    let pos = initialPosition();
    const { press, inbox } = game(pos);
    const id = pact(press, inbox, 'R', ['B'], { rounds: 1 });
    inbox.clear();
    for (let i = 0; i < 3; i++) {
      const t = quietTurn(pos);
      turn(press, inbox, t);
      pos = t.after;
    }
    expect(press.historyFor('R').pacts[0]).toMatchObject({ status: 'in_force', turnsLeft: 1, roundsLeft: 1 });
    const last = quietTurn(pos);
    turn(press, inbox, last);
    expect(inbox.of('B')).toEqual([
      { type: 'pact', payload: { event: 'expired', by: null, pact: expect.objectContaining({ id, status: 'ended', endReason: 'expired', endedPly: 3 }) } },
    ]);
    expect(inbox.of('Y')).toEqual([]);
  });

  test('a pending proposal: accept, decline, withdraw; eliminated members are released', () => {
    const pos = initialPosition();
    const { press, inbox } = game(pos);
    const d = ok(press, inbox, 'R', 'pact_propose', { with: ['B', 'Y'] }, 0);
    const id = (d[0].payload as { pact: PactView }).pact.id;
    expect(ok(press, inbox, 'B', 'pact_accept', { pact: id }, 0)[0]).toMatchObject({
      to: ['R', 'B', 'Y'],
      payload: { event: 'accepted', pact: { status: 'proposed', accepted: ['R', 'B'] } },
    });
    expect(refused(press, inbox, 'B', 'pact_accept', { pact: id }, 0)).toBe('already_answered');
    expect(ok(press, inbox, 'Y', 'pact_decline', { pact: id }, 0)[0]).toMatchObject({
      payload: { event: 'declined', by: 'Y', pact: { status: 'ended', endReason: 'declined' } },
    });
    expect(refused(press, inbox, 'Y', 'pact_accept', { pact: id }, 0)).toBe('pact_closed');

    const w = ok(press, inbox, 'R', 'pact_propose', { with: ['G'] }, 0);
    const wid = (w[0].payload as { pact: PactView }).pact.id;
    expect(ok(press, inbox, 'R', 'pact_leave', { pact: wid }, 0)[0]).toMatchObject({ payload: { event: 'withdrawn', pact: { endReason: 'withdrawn' } } });

    const three = pact(press, inbox, 'R', ['B', 'Y'], {}, 5000);
    inbox.clear();
    const r = resign(pos, 'Y');
    if (!r.ok) throw new Error(r.error.message);
    inbox.take(press.afterResign(r.value.position, 1));
    expect(inbox.of('R').filter((m) => m.type === 'pact')).toMatchObject([
      { payload: { event: 'eliminated', by: 'Y', pact: { id: three, status: 'in_force', standing: ['R', 'B'] } } },
    ]);
    expect(refused(press, inbox, 'R', 'pact_propose', { with: ['Y'] }, 9000)).toBe('not_active');
  });

  test('rejections', () => {
    const { press, inbox } = game();
    const id = pact(press, inbox, 'R', ['B']);
    expect(refused(press, inbox, 'R', 'pact_propose', { with: ['B'] }, 1000)).toBe('pact_exists');
    expect(refused(press, inbox, 'R', 'pact_propose', { with: [] }, 1000)).toBe('bad_payload');
    expect(refused(press, inbox, 'R', 'pact_propose', { with: ['R'] }, 1000)).toBe('bad_members');
    expect(refused(press, inbox, 'R', 'pact_propose', { with: ['B'], rounds: 0 }, 1000)).toBe('bad_payload');
    expect(refused(press, inbox, 'R', 'pact_propose', { with: ['Y'], announce: 'yes' }, 1000)).toBe('bad_payload');
    expect(refused(press, inbox, 'spec', 'pact_propose', { with: ['Y'] }, 1000)).toBe('not_seated');
    expect(refused(press, inbox, 'Y', 'pact_accept', { pact: id }, 1000)).toBe('no_such_pact');
    expect(refused(press, inbox, 'B', 'pact_accept', { pact: id }, 1000)).toBe('already_answered');
    expect(refused(press, inbox, 'B', 'pact_decline', { pact: id }, 1000)).toBe('pact_closed');
    expect(refused(press, inbox, 'B', 'pact_accept', { pact: 42 }, 1000)).toBe('bad_payload');
  });
});
