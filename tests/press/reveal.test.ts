/** The after-game reveal: pacts, betrayals and conversations in move order, stamped with the ply. */
import { makeTurn, pieces } from '@djambi/shared';
import { Press, type PressReveal } from '../../server/src/press/index.js';
import { Inbox, counterIds, findTurn, ok, position } from './helpers.js';

describe('reveal', () => {
  test('everything, in the order it happened, to every seat and spectator', () => {
    const pos = position('Rc a9, Bc i9, Yc i1, Gc a1, Rm e2, Bm e3, Bm h5', { ply: 5 });
    const press = new Press({ seats: ['R', 'B', 'Y', 'G'], newId: counterIds('pact') });
    const inbox = new Inbox();
    press.addSpectator('spec');
    press.start(pos);
    ok(press, inbox, 'R', 'press_open', { members: ['B'] }, 100);
    ok(press, inbox, 'R', 'press_send', { channel: 'dm:RB', text: 'trust me' }, 101);
    ok(press, inbox, 'R', 'pact_propose', { with: ['B'] }, 102);
    ok(press, inbox, 'B', 'pact_accept', { pact: 'pact1' }, 103);
    ok(press, inbox, 'spec', 'press_send', { channel: 'spectators', text: 'oh no' }, 104);
    const t = findTurn(pos, (fx, turn) => 'from' in turn && turn.from === 'e2' && fx.some((e) => e.type === 'kill' && pieces(pos)[e.piece].colour === 'B'));
    inbox.take(press.afterTurn(t.before, t.after, t.effects, t.mover, 5, 105, makeTurn(t.turn, pos)));
    ok(press, inbox, 'B', 'press_send', { channel: 'dm:RB', text: 'traitor!' }, 106);
    ok(press, inbox, 'G', 'press_send', { channel: 'table', text: 'what happened?' }, 107);
    ok(press, inbox, 'B', 'draw_offer', {}, 108);
    ok(press, inbox, 'R', 'draw_decline', {}, 109);
    inbox.clear();
    inbox.take(press.endGame(110, t.after));

    const reveal = press.reveal() as PressReveal;
    expect(reveal.timeline.map((i) => [i.kind, 'event' in i ? i.event : 'text' in i ? i.text : '', i.ply])).toEqual([
      ['channel', '', 5],
      ['message', 'trust me', 5],
      ['pact', 'proposed', 5],
      ['pact', 'accepted', 5],
      ['pact', 'in_force', 5],
      ['message', 'oh no', 5],
      ['betrayal', '', 5],
      ['message', 'traitor!', 6],
      ['message', 'what happened?', 6],
      ['draw', 'offered', 6],
      ['draw', 'declined', 6],
    ]);
    expect(reveal.timeline.map((i) => i.at)).toEqual([100, 101, 102, 103, 103, 104, 105, 106, 107, 108, 109]);
    expect(reveal.pacts).toMatchObject([{ id: 'pact1', status: 'ended', endReason: 'betrayed', broken: true }]);
    expect(reveal.betrayals).toMatchObject([{ pactId: 'pact1', traitor: 'R', victim: 'B', ply: 5 }]);
    expect(reveal.channels.map((c) => c.id)).toEqual(['table', 'spectators', 'dm:RB']);
    for (const m of ['R', 'B', 'Y', 'G', 'spec']) {
      expect(inbox.of(m)).toEqual([{ type: 'press_reveal', payload: JSON.parse(JSON.stringify(reveal)) }]);
      expect(press.historyFor(m).reveal).toEqual(reveal);
    }
    // Idempotent: a second end sends nothing.
    expect(press.endGame(111)).toEqual([]);
  });
});
