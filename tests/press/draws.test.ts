/** Draw offers: accepted by every active player it passes; one refusal or a played turn cancels it. */
import { drawByAgreement, initialPosition, resign, type Position } from '@djambi/shared';
import { Press, type DrawOfferView } from '../../server/src/press/index.js';
import { Inbox, counterIds, fingerprint, ok, quietTurn, refused } from './helpers.js';

function game(pos: Position = initialPosition()) {
  const press = new Press({ seats: ['R', 'B', 'Y', 'G'], newId: counterIds() });
  const inbox = new Inbox();
  press.addSpectator('spec');
  press.start(pos);
  return { press, inbox };
}

const events = (inbox: Inbox, member: string) =>
  inbox
    .of(member)
    .filter((m) => m.type === 'draw')
    .map((m) => (m.payload as { event: string }).event);

describe('draw offers', () => {
  test('accepted by every active player, it passes; the room then ends the game with drawByAgreement', () => {
    const pos = initialPosition();
    const { press, inbox } = game(pos);
    const offered = ok(press, inbox, 'R', 'draw_offer', {}, 0);
    expect(offered).toEqual([
      { to: ['R', 'B', 'Y', 'G', 'spec'], type: 'draw', payload: { event: 'offered', by: 'R', offer: { id: 1, by: 'R', accepted: ['R'], ply: 0 } } },
    ]);
    expect(press.draws.current()).toEqual({ id: 1, by: 'R', accepted: ['R'], ply: 0 });
    for (const c of ['B', 'Y'] as const) {
      const r = press.handle(c, 'draw_accept', { offer: 1 }, 0);
      expect(r).toMatchObject({ ok: true });
      expect(r.ok && r.drawAgreed).toBeFalsy();
      if (r.ok) inbox.take(r.deliveries);
    }
    const last = press.handle('G', 'draw_accept', {}, 0);
    expect(last.ok && last.drawAgreed).toBe(true);
    if (!last.ok) throw new Error('refused');
    inbox.take(last.deliveries);
    expect(events(inbox, 'spec')).toEqual(['offered', 'accepted', 'accepted', 'accepted', 'passed']);
    expect(press.draws.current()).toBeNull();
    // The room: drawByAgreement, then the press learns that the game is over.
    const end = drawByAgreement(pos);
    if (!end.ok) throw new Error(end.error.message);
    expect(end.value.position.result).toMatchObject({ kind: 'draw', reason: 'agreement' });
    inbox.take(press.endGame(1, end.value.position));
    expect(inbox.types('B')).toContain('press_reveal');
    expect(refused(press, inbox, 'R', 'draw_offer', {}, 5000)).toBe('game_over');
  });

  test('one refusal cancels it', () => {
    const { press, inbox } = game();
    ok(press, inbox, 'B', 'draw_offer', undefined, 0);
    ok(press, inbox, 'R', 'draw_accept', { offer: 1 }, 0);
    const d = ok(press, inbox, 'Y', 'draw_decline', { offer: 1 }, 0);
    expect(d[0].payload).toMatchObject({ event: 'declined', by: 'Y', offer: { id: 1, accepted: ['R', 'B'] } });
    expect(press.draws.current()).toBeNull();
    expect(refused(press, inbox, 'G', 'draw_accept', {}, 0)).toBe('no_draw_offer');
    // A new offer may follow; a late answer to the old one is stale.
    ok(press, inbox, 'G', 'draw_offer', {}, 0);
    expect(refused(press, inbox, 'R', 'draw_accept', { offer: 1 }, 0)).toBe('stale');
  });

  test('a played turn cancels it, before everyone has accepted', () => {
    const pos = initialPosition();
    const { press, inbox } = game(pos);
    ok(press, inbox, 'R', 'draw_offer', {}, 0);
    ok(press, inbox, 'B', 'draw_accept', {}, 0);
    ok(press, inbox, 'Y', 'draw_accept', {}, 0);
    const t = quietTurn(pos);
    inbox.take(press.afterTurn(t.before, t.after, t.effects, t.mover, 0, 10));
    expect(events(inbox, 'G')).toEqual(['offered', 'accepted', 'accepted', 'lapsed']);
    expect(refused(press, inbox, 'G', 'draw_accept', {}, 20)).toBe('no_draw_offer');
    expect(press.historyFor('G').draw).toBeNull();
  });

  test('a resignation cancels it; then the remaining active players decide', () => {
    const pos = initialPosition();
    const { press, inbox } = game(pos);
    ok(press, inbox, 'R', 'draw_offer', {}, 0);
    const r = resign(pos, 'G');
    if (!r.ok) throw new Error(r.error.message);
    inbox.take(press.afterResign(r.value.position, 1));
    expect(events(inbox, 'B')).toEqual(['offered', 'lapsed']);
    expect(refused(press, inbox, 'G', 'draw_offer', {}, 2000)).toBe('not_active');
    ok(press, inbox, 'B', 'draw_offer', {}, 2000);
    ok(press, inbox, 'R', 'draw_accept', {}, 2000);
    const last = press.handle('Y', 'draw_accept', {}, 2000);
    expect(last.ok && last.drawAgreed).toBe(true); // G is out: three acceptances suffice
  });

  test('rejections change nothing', () => {
    const { press, inbox } = game();
    ok(press, inbox, 'R', 'draw_offer', {}, 0);
    const before = fingerprint(press, ['R', 'B', 'Y', 'G', 'spec']);
    const codes = [
      refused(press, inbox, 'B', 'draw_offer', {}, 0),
      refused(press, inbox, 'R', 'draw_accept', {}, 0),
      refused(press, inbox, 'spec', 'draw_accept', {}, 0),
      refused(press, inbox, 'B', 'draw_accept', { offer: 'one' }, 0),
      refused(press, inbox, 'B', 'draw_accept', { offer: 1, extra: true }, 0),
      refused(press, inbox, 'B', 'draw_offer', 'please', 0),
    ];
    expect(codes).toEqual(['draw_offer_open', 'already_accepted', 'not_seated', 'bad_payload', 'bad_payload', 'bad_payload']);
    expect(fingerprint(press, ['R', 'B', 'Y', 'G', 'spec'])).toBe(before);
    expect((press.historyFor('spec').draw as DrawOfferView).accepted).toEqual(['R']);
  });

  test('before the start there is nothing to draw', () => {
    const press = new Press({ seats: ['R', 'B', 'Y', 'G'] });
    expect(press.handle('R', 'draw_offer', {}, 0)).toMatchObject({ ok: false, error: { code: 'game_not_started' } });
  });
});
