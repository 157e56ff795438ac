/**
 * `pactBreaches` (shared): the client's "this turn breaks your pact" warning agrees with the
 * betrayal the server records for the same turn.
 */
import { makeTurn, pactBreaches, pieces, type Colour, type Effect, type Position, type Turn } from '@djambi/shared';
import { Press, type Betrayal, type PactView } from '../../server/src/press/index.js';
import { Inbox, counterIds, findTurn, ok, position, quietTurn } from './helpers.js';

// Red's militant on e2 next to Blue's militant on e3.
const KILL = 'Rc a9, Bc i9, Yc i1, Gc a1, Rm e2, Bm e3, Bm h5, Ym g5';

const killsColour = (pos: Position, colour: Colour) => (fx: Effect[]) =>
  fx.some((e) => e.type === 'kill' && e.by >= 0 && pieces(pos)[e.piece].colour === colour);

describe('pactBreaches', () => {
  test('a kill of a partner’s piece breaks the pact; a quiet move does not', () => {
    const pos = position(KILL);
    const kill = findTurn(pos, killsColour(pos, 'B'));
    expect([...pactBreaches(pos, kill.turn, 'R', ['B', 'G'])]).toEqual([['B', ['kill']]]);
    expect([...pactBreaches(pos, kill.turn, 'R', ['G'])]).toEqual([]); // Blue is no partner
    expect([...pactBreaches(pos, quietTurn(pos).turn, 'R', ['B', 'G'])]).toEqual([]);
    expect([...pactBreaches(pos, kill.turn, 'R', [])]).toEqual([]);
  });

  test('nothing for a turn that is not the mover’s or not legal', () => {
    const pos = position(KILL);
    const kill = findTurn(pos, killsColour(pos, 'B'));
    expect([...pactBreaches(pos, kill.turn, 'B', ['R'])]).toEqual([]);
    const illegal: Turn = { from: 'e2', to: 'i5' } as Turn;
    expect([...pactBreaches(pos, illegal, 'R', ['B'])]).toEqual([]);
  });

  test('the warning names the victims the server records as betrayed', () => {
    const pos = position(KILL, { ply: 12 });
    const press = new Press({ seats: ['R', 'B', 'Y', 'G'], newId: counterIds() });
    const inbox = new Inbox();
    press.start(pos);
    const d = ok(press, inbox, 'R', 'pact_propose', { with: ['B'] }, 0);
    const id = (d[0].payload as { pact: PactView }).pact.id;
    ok(press, inbox, 'B', 'pact_accept', { pact: id }, 0);
    const t = findTurn(pos, killsColour(pos, 'B'));
    const warned = pactBreaches(pos, t.turn, 'R', ['B']);
    const recorded = press
      .afterTurn(t.before, t.after, t.effects, t.mover, pos.ply, 5, makeTurn(t.turn, pos))
      .filter((x) => x.type === 'betrayal')
      .map((x) => (x.payload as { betrayal: Betrayal }).betrayal);
    expect(recorded.map((b) => [b.victim, b.acts])).toEqual([...warned]);
  });
});
