/**
 * Input during an animation, without a browser: any press, tap, key or typed square while a
 * turn animates first finishes the animation, then acts on the position after it. The
 * regression: a tap on the piece the turn just displaced, while the move animates, selects it
 * (it used to be selected on press and deselected on release, decided on the position before).
 */
import {
  nextChoice,
  parseRules,
  parseTurn,
  initialPosition,
  pieceAt,
  playTurn,
  pieces,
  type Colour,
  type PieceInfo,
  type Position,
  type SquareName,
  type Turn,
} from '@djambi/shared';
import { AnimationGate } from '../../client/src/game/animationGate.js';
import { GameController } from '../../client/src/game/controller.js';
import { PointerGesture, type GestureTarget } from '../../client/src/game/gesture.js';

function play(pos: Position, text: string): Position {
  const t = parseTurn(text);
  if (!t.ok) throw new Error(text);
  const res = playTurn(pos, t.value);
  if (!res.ok) throw new Error(`${text}: ${res.error.message}`);
  return res.value.position;
}

/** Two players; Red's diplomat crosses to h2 and puts Yellow's diplomat on e3. Yellow is next. */
const TWO = parseRules({ players: 2 });
if (!TWO.ok) throw new Error('rules');
const beforeDisplace = play(play(initialPosition(TWO.value), 'c7-d7'), 'g3-f3');
const afterDisplace = play(beforeDisplace, 'b8-h2>e3');

describe('the animation gate', () => {
  test('settling finishes the running animation once, then redraws', () => {
    const log: string[] = [];
    const gate = new AnimationGate(() => log.push('redraw'));
    expect(gate.settle()).toBe(false);
    const ended = gate.start(() => log.push('finish'));
    expect(gate.running).toBe(true);
    expect(gate.settle()).toBe(true);
    expect(gate.running).toBe(false);
    expect(gate.settle()).toBe(false);
    expect(log).toEqual(['finish', 'redraw']);
    // Its own end comes later and is no longer the page's business.
    expect(ended()).toBe(false);
  });

  test('an animation that ends by itself is not finished again', () => {
    const log: string[] = [];
    const gate = new AnimationGate(() => log.push('redraw'));
    const ended = gate.start(() => log.push('finish'));
    expect(ended()).toBe(true);
    expect(gate.settle()).toBe(false);
    expect(log).toEqual([]);
  });

  test('a new animation takes over; the old one’s end does not stop it', () => {
    const gate = new AnimationGate();
    const first = gate.start(() => undefined);
    gate.start(() => undefined);
    expect(first()).toBe(false);
    expect(gate.running).toBe(true);
  });

  test('a guarded input runs after the animation is finished', () => {
    const log: string[] = [];
    const gate = new AnimationGate(() => log.push('redraw'));
    const input = gate.guard((text: string) => {
      log.push(`input ${text} (running: ${gate.running})`);
      return text.length;
    });
    gate.start(() => log.push('finish'));
    expect(input('e3')).toBe(2);
    expect(input('e4')).toBe(2);
    expect(log).toEqual(['finish', 'redraw', 'input e3 (running: false)', 'input e4 (running: false)']);
  });
});

/**
 * The page without a browser: the controller, the gate, and a board that draws the position
 * before the turn while the turn animates, the controller's position otherwise (as `gamePage`
 * and `BoardView` do).
 */
function page(before: Position, after: Position, seat: Colour) {
  const log: string[] = [];
  const sent: Turn[] = [];
  const controller = new GameController({ onSubmit: (t) => void sent.push(t) });
  const board: { pieces: readonly PieceInfo[]; selected: SquareName | null } = { pieces: [], selected: null };
  const redraw = (): void => {
    if (gate.running) return;
    board.pieces = pieces(controller.view.position!);
    board.selected = controller.view.highlights.selected;
  };
  const gate = new AnimationGate(redraw);
  controller.subscribe(redraw);
  controller.setPosition(after, seat, { version: 3 });
  // The new state came with the turn's effects: the board animates it from the position before.
  const ended = gate.start(() => {
    log.push('finish');
    board.pieces = pieces(after);
  });
  board.pieces = pieces(before);
  board.selected = null;
  const target: GestureTarget = {
    settle: () => void gate.settle(),
    canDrag: (sq) => controller.canDrag(sq),
    selected: () => board.selected,
    click: (sq) => {
      log.push(`click ${sq}`);
      controller.click(sq);
    },
    drop: (from, to) => {
      log.push(`drop ${from} ${to}`);
      controller.drop(from, to);
    },
  };
  const gesture = new PointerGesture(target);
  const shownAt = (sq: SquareName): PieceInfo | undefined => board.pieces.find((p) => p.square === sq && p.alive);
  return { controller, gate, ended, gesture, board, log, sent, shownAt };
}

describe('input while a turn animates', () => {
  test('a tap on the piece the turn just displaced selects it, on the position after the turn', () => {
    const p = page(beforeDisplace, afterDisplace, 'Y');
    // While the move animates, e3 is still empty on the board; the displaced diplomat is on h2.
    expect(p.shownAt('e3')).toBeUndefined();
    expect(p.shownAt('h2')?.colour).toBe('Y');
    p.gesture.down('e3', 100, 100);
    // The press finished the animation first: the board shows the position after the turn.
    expect(p.gate.running).toBe(false);
    expect(p.shownAt('e3')).toEqual(pieceAt(afterDisplace, 'e3'));
    expect(p.gesture.up('e3')).toBe('none');
    expect(p.log).toEqual(['finish', 'click e3']);
    expect(p.controller.view.highlights.selected).toBe('e3');
    expect(p.controller.view.prompt.key).toBe('destination');
    const engine = nextChoice(afterDisplace, { from: 'e3' });
    expect(engine.ok && engine.value.kind === 'destination' ? [...engine.value.options].sort() : null).toEqual(
      [...p.controller.view.highlights.options].sort(),
    );
    expect(p.board.selected).toBe('e3');
    // The animation's own end, later, changes nothing.
    expect(p.ended()).toBe(false);
    expect(p.controller.view.highlights.selected).toBe('e3');
  });

  test('a second tap deselects it, as on a board at rest', () => {
    const p = page(beforeDisplace, afterDisplace, 'Y');
    p.gesture.down('e3', 100, 100);
    p.gesture.up('e3');
    p.gesture.down('e3', 100, 100);
    expect(p.gesture.up('e3')).toBe('clicked');
    expect(p.controller.view.highlights.selected).toBeNull();
    expect(p.log).toEqual(['finish', 'click e3', 'click e3']);
  });

  test('the displaced piece can be dragged from its new square during the animation', () => {
    const p = page(beforeDisplace, afterDisplace, 'Y');
    p.gesture.down('e3', 100, 100);
    expect(p.gesture.pressed).toBe('e3');
    expect(p.gesture.move(102, 101)).toBe(false); // under the drag threshold
    expect(p.gesture.move(100, 160)).toBe(true);
    expect(p.gesture.up('e4')).toBe('dropped');
    expect(p.sent).toEqual([{ from: 'e3', to: 'e4' }]);
  });

  test('a tap on the square the displaced piece left is decided on the position after the turn', () => {
    const p = page(beforeDisplace, afterDisplace, 'Y');
    // h2 now holds Red's diplomat: not Yellow's to move, nothing is selected.
    p.gesture.down('h2', 10, 10);
    expect(p.gesture.pressed).toBeNull();
    expect(p.gesture.up('h2')).toBe('clicked');
    expect(p.controller.view.highlights.selected).toBeNull();
    expect(p.controller.view.prompt.key).toBe('piece');
  });

  test('typed squares and buttons finish the animation first too', () => {
    const p = page(beforeDisplace, afterDisplace, 'Y');
    const type = p.gate.guard((text: string) => p.controller.input(text));
    expect(type('e3')).toBe('selected');
    expect(p.log).toEqual(['finish']);
    expect(p.board.selected).toBe('e3');
    const cancel = p.gate.guard(() => p.controller.cancel());
    expect(cancel()).toBe('deselected');
  });
});

describe('the pointer gesture at rest', () => {
  function rest(pos: Position, seat: Colour) {
    const log: string[] = [];
    const c = new GameController();
    c.setPosition(pos, seat);
    const gesture = new PointerGesture({
      settle: () => log.push('settle'),
      canDrag: (sq) => c.canDrag(sq),
      selected: () => c.view.highlights.selected,
      click: (sq) => {
        log.push(`click ${sq}`);
        c.click(sq);
      },
      drop: (from, to) => {
        log.push(`drop ${from} ${to}`);
        c.drop(from, to);
      },
    });
    return { c, gesture, log };
  }

  test('press selects, tap elsewhere on a destination plays, release off the board does nothing', () => {
    const { c, gesture, log } = rest(initialPosition(), 'R');
    gesture.down('c7', 0, 0);
    expect(gesture.up('c7')).toBe('none');
    expect(c.view.highlights.selected).toBe('c7');
    gesture.down('d6', 0, 0);
    expect(gesture.up(null)).toBe('none');
    expect(c.view.highlights.selected).toBe('c7');
    gesture.down('d6', 0, 0);
    expect(gesture.up('d6')).toBe('clicked');
    expect(c.view.sending).toBe(true);
    expect(log).toEqual(['settle', 'click c7', 'settle', 'settle', 'click d6']);
  });

  test('a drag dropped back on its square returns the piece and keeps it selected', () => {
    const { c, gesture } = rest(initialPosition(), 'R');
    gesture.down('c7', 0, 0);
    expect(gesture.move(30, 30)).toBe(true);
    expect(gesture.up('c7')).toBe('returned');
    expect(c.view.highlights.selected).toBe('c7');
  });

  test('a press off the board or on a piece that cannot move never drags', () => {
    const { gesture } = rest(initialPosition(), 'R');
    gesture.down(null, 0, 0);
    expect(gesture.move(50, 50)).toBe(false);
    expect(gesture.up('c7')).toBe('none');
    gesture.down('g7', 0, 0);
    expect(gesture.move(50, 50)).toBe(false);
  });
});
