/**
 * Never drop an intent, without a browser: a turn made while the link is down (or on a socket
 * that died unnoticed) is kept, the prompt says it will be sent, the board waits, and when the
 * link is back the turn is sent again once with the same state version. The new state, or a
 * refusal, settles it; the server's `stale` refusal of a copy it had already applied is
 * harmless and says nothing.
 */
import { initialPosition, playTurn, type Position, type Turn } from '@djambi/shared';
import { GameController } from '../../client/src/game/controller.js';

const start = initialPosition();
const TURN: Turn = { from: 'c7', to: 'd6' };

function after(pos: Position, turn: Turn): Position {
  const res = playTurn(pos, turn);
  if (!res.ok) throw new Error(res.error.message);
  return res.value.position;
}

/** A controller whose sends go out only while `link.open` (as the connection's `send`). */
function setup(opts: { confirm?: boolean } = {}) {
  const link = { open: true };
  const sends: { turn: Turn; version: number | undefined; out: boolean }[] = [];
  const c = new GameController({
    confirm: opts.confirm,
    onSubmit: (turn, version) => {
      sends.push({ turn, version, out: link.open });
      return link.open;
    },
  });
  c.setPosition(start, 'R', { version: 0 });
  return { c, sends, link };
}

describe('a turn made while the link is down', () => {
  test('is kept, waits with the board still, and goes out with its version when the link is back', () => {
    const { c, sends, link } = setup();
    link.open = false;
    c.setLink(false);
    // The turn can still be made…
    expect(c.click('c7')).toBe('selected');
    expect(c.click('d6')).toBe('submitted');
    // …the send says it failed, and nothing is dropped.
    expect(sends).toEqual([{ turn: TURN, version: 0, out: false }]);
    expect(c.view.sending).toBe(true);
    expect(c.view.queued).toBe(true);
    expect(c.view.pending).toEqual(TURN);
    expect(c.view.prompt.key).toBe('reconnecting');
    // The board is not interactive while the link is down.
    expect(c.view.interactive).toBe(false);
    expect(c.view.canUndo).toBe(false);
    expect(c.click('b7')).toBe('ignored');
    expect(c.undo()).toBe('ignored');
    expect(c.cancel()).toBe('ignored');
    expect(c.canDrag('b7')).toBe(false);
    expect(c.drop('b7', 'd5')).toBe('ignored');
    expect(c.view.pending).toEqual(TURN);
    // A patch of the same state (a clock, a presence) changes nothing.
    c.setPosition(start, 'R', { version: 0 });
    expect(c.view.prompt.key).toBe('reconnecting');
    // The link is back (a new room): the turn goes out again, once, with the same version.
    link.open = true;
    c.setLink(true);
    expect(sends).toEqual([
      { turn: TURN, version: 0, out: false },
      { turn: TURN, version: 0, out: true },
    ]);
    expect(c.view.prompt.key).toBe('sending');
    expect(c.view.queued).toBe(false);
    c.setLink(true);
    expect(sends).toHaveLength(2);
    // The new state shows it applied: everything works again.
    c.setPosition(after(start, TURN), 'R', { version: 1 });
    expect(c.view.sending).toBe(false);
    expect(c.view.pending).toBeNull();
    expect(c.view.error).toBeNull();
    expect(c.view.prompt).toEqual({ key: 'notYourTurn', colour: 'B' });
  });

  test('a send that fails on a socket not yet known as dead waits for the link too', () => {
    const { c, sends, link } = setup();
    link.open = false; // the socket died; the page has not heard yet
    c.click('c7');
    c.click('d6');
    expect(c.view.prompt.key).toBe('reconnecting');
    expect(c.view.interactive).toBe(false);
    c.setLink(false);
    expect(sends).toHaveLength(1);
    link.open = true;
    c.setLink(true);
    expect(sends.map((s) => [s.version, s.out])).toEqual([
      [0, false],
      [0, true],
    ]);
    expect(c.view.prompt.key).toBe('sending');
  });

  test('confirmed while the link is down, it waits likewise', () => {
    const { c, sends, link } = setup({ confirm: true });
    link.open = false;
    c.setLink(false);
    c.click('c7');
    expect(c.click('d6')).toBe('complete');
    expect(c.confirm()).toBe('submitted');
    expect(c.view.prompt.key).toBe('reconnecting');
    link.open = true;
    c.setLink(true);
    expect(sends.filter((s) => s.out)).toEqual([{ turn: TURN, version: 0, out: true }]);
  });
});

describe('a turn sent just before the link dropped', () => {
  test('is sent again when the link is back; the stale refusal of the copy is harmless', () => {
    const { c, sends, link } = setup();
    c.click('c7');
    c.click('d6');
    expect(c.view.prompt.key).toBe('sending');
    // The link drops before the new state came: the turn may or may not have arrived.
    link.open = false;
    c.setLink(false);
    expect(c.view.prompt.key).toBe('reconnecting');
    expect(c.view.queued).toBe(true);
    expect(c.view.interactive).toBe(false);
    link.open = true;
    c.setLink(true);
    expect(sends.map((s) => s.version)).toEqual([0, 0]);
    // It had arrived: the state after the reconnection shows it applied…
    c.setPosition(after(start, TURN), 'R', { version: 1 });
    expect(c.view.sending).toBe(false);
    // …and the server refuses the copy as stale: nothing to undo, nothing to say.
    expect(c.rejected('stale')).toBe(false);
    expect(c.view.error).toBeNull();
    expect(c.view.prompt).toEqual({ key: 'notYourTurn', colour: 'B' });
  });

  test('a late stale refusal of the copy does not undo the next turn', () => {
    const { c, sends, link } = setup();
    c.click('c7');
    c.click('d6');
    c.setLink(false);
    c.setLink(true);
    // Applied; the same seat moves again at once (as the ruler does) and sends its next turn.
    c.setPosition(start, 'R', { version: 1 });
    expect(c.view.interactive).toBe(true);
    c.click('b7');
    c.click('d5');
    expect(sends.map((s) => [s.turn, s.version])).toEqual([
      [TURN, 0],
      [TURN, 0],
      [{ from: 'b7', to: 'd5' }, 1],
    ]);
    // The refusal of the copy of the first turn comes only now.
    expect(c.rejected('stale')).toBe(false);
    expect(c.view.sending).toBe(true);
    expect(c.view.prompt.key).toBe('sending');
    expect(link.open).toBe(true);
  });

  test('when the copy is refused for another reason, the turn starts again and says why', () => {
    const { c, link } = setup();
    c.click('c7');
    c.click('d6');
    link.open = false;
    c.setLink(false);
    link.open = true;
    c.setLink(true);
    expect(c.rejected('not_your_turn')).toBe(true);
    expect(c.view.sending).toBe(false);
    expect(c.view.error).toBe('not_your_turn');
    expect(c.view.interactive).toBe(true);
    expect(c.click('c7')).toBe('selected');
  });

  test('a stale refusal of the only copy starts the turn again', () => {
    const { c } = setup();
    c.click('c7');
    c.click('d6');
    expect(c.rejected('stale')).toBe(true);
    expect(c.view.error).toBe('stale');
    expect(c.view.interactive).toBe(true);
  });
});

describe('the turn waiting for the link', () => {
  test('outlives a look at the history and is sent when the link is back', () => {
    const { c, sends, link } = setup();
    link.open = false;
    c.setLink(false);
    c.click('c7');
    c.click('d6');
    c.setPosition(start, 'R', { history: true, version: 0 });
    expect(c.view.prompt.key).toBe('history');
    c.setPosition(start, 'R', { version: 0 });
    expect(c.view.prompt.key).toBe('reconnecting');
    expect(c.view.pending).toEqual(TURN);
    expect(c.view.highlights.selected).toBe('c7');
    expect(c.view.preview.moved.get('c7')).toBe('d6');
    link.open = true;
    c.setLink(true);
    expect(sends.filter((s) => s.out)).toEqual([{ turn: TURN, version: 0, out: true }]);
  });

  test('is dropped when the seat is gone (the server would refuse it)', () => {
    const { c, sends, link } = setup();
    link.open = false;
    c.setLink(false);
    c.click('c7');
    c.click('d6');
    c.setPosition(start, null, { version: 0 });
    expect(c.view.sending).toBe(false);
    expect(c.view.prompt.key).toBe('spectator');
    link.open = true;
    c.setLink(true);
    expect(sends).toHaveLength(1);
  });

  test('is settled by a new version even on the same position', () => {
    const { c, link } = setup();
    link.open = false;
    c.setLink(false);
    c.click('c7');
    c.click('d6');
    c.setPosition(start, 'R', { version: 1 });
    expect(c.view.sending).toBe(false);
    expect(c.view.pending).toBeNull();
  });
});

describe('the link down on the viewer’s turn (issue 40, bug 7)', () => {
  test('the prompt says "reconnecting", not "your turn", until the link is back', () => {
    const { c } = setup();
    expect(c.view.prompt.key).toBe('piece');
    c.setLink(false);
    expect(c.view.prompt.key).toBe('linkDown');
    c.setLink(true);
    expect(c.view.prompt.key).toBe('piece');
  });
});
