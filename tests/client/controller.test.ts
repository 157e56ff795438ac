/**
 * The headless board controller, without a browser: selection, the further choices of a turn,
 * highlights, prompts, undo, confirm, drag, keyboard input and server answers. Every option the
 * controller offers must be exactly the engine's.
 */
import {
  DEFAULT_RULES,
  initialPosition,
  legalTurns,
  nextChoice,
  parseTurn,
  playTurn,
  setupPosition,
  type Colour,
  type MoveTurn,
  type PieceSetup,
  type Position,
  type Rules,
  type Turn,
} from '@djambi/shared';
import { GameController, type ControllerView } from '../../client/src/game/controller.js';

/** A position from a list of pieces (`Rm:c5` = living Red militant on c5; `x` prefix = corpse). */
function position(spec: string[], toMove: Colour = 'R', rules: Partial<Rules> = {}, extra: { active?: Colour[] } = {}): Position {
  const kinds: Record<string, PieceSetup['kind']> = { c: 'chief', a: 'assassin', r: 'reporter', d: 'diplomat', n: 'necromobile', m: 'militant' };
  const pieces = spec.map((s) => {
    const dead = s.startsWith('x');
    const body = dead ? s.slice(1) : s;
    const [ck, square] = body.split(':');
    return { colour: ck[0] as Colour, kind: kinds[ck[1]], square, alive: !dead };
  });
  const res = setupPosition({ pieces, toMove, active: extra.active }, { ...DEFAULT_RULES, ...rules });
  if (!res.ok) throw new Error(res.error.message);
  return res.value;
}

/** All four chiefs tucked in their corners, so positions are legal games. */
const CHIEFS = ['Rc:a9', 'Bc:i9', 'Yc:i1', 'Gc:a1'];

function setup(pos: Position, seat: Colour | null, confirm = false) {
  const sent: Turn[] = [];
  const c = new GameController({ confirm, onSubmit: (t: Turn) => void sent.push(t) });
  c.setPosition(pos, seat);
  return { c, sent };
}

describe('who may act', () => {
  const start = initialPosition();

  test('a spectator sees no options', () => {
    const { c } = setup(start, null);
    expect(c.view.interactive).toBe(false);
    expect(c.view.prompt.key).toBe('spectator');
    expect(c.view.highlights.options).toEqual([]);
    expect(c.click('c7')).toBe('ignored');
  });

  test('another seat waits for the player to move', () => {
    const { c } = setup(start, 'B');
    expect(c.view.interactive).toBe(false);
    expect(c.view.prompt).toEqual({ key: 'notYourTurn', colour: 'R' });
    expect(c.click('g7')).toBe('ignored');
  });

  test('before the start and in history nothing can be chosen', () => {
    const c = new GameController();
    c.setPosition(start, 'R', { started: false });
    expect(c.view.prompt.key).toBe('notStarted');
    expect(c.view.interactive).toBe(false);
    c.setPosition(start, 'R', { history: true });
    expect(c.view.prompt.key).toBe('history');
    expect(c.click('c7')).toBe('ignored');
  });

  test('the player to move is asked for a piece: the engine’s movable pieces', () => {
    const { c } = setup(start, 'R');
    const engine = nextChoice(start, {});
    expect(engine.ok && engine.value.kind).toBe('piece');
    expect(c.view.interactive).toBe(true);
    expect(c.view.prompt.key).toBe('piece');
    expect(c.view.highlights.optionKind).toBe('piece');
    expect([...c.view.highlights.options].sort()).toEqual(engine.ok && 'options' in engine.value ? [...engine.value.options].sort() : []);
  });

  test('a finished game says so', () => {
    const pos = position(['Rc:a9', 'Bc:i9', 'xYc:i1', 'xGc:a1'], 'R', {}, { active: ['R', 'B'] });
    const { c } = setup(pos, 'R');
    // Still playable (two players left): the controller follows the engine.
    expect(c.view.interactive).toBe(true);
  });
});

describe('selection', () => {
  const start = initialPosition();

  test('selecting a piece highlights exactly its legal destinations', () => {
    const { c } = setup(start, 'R');
    expect(c.click('c7')).toBe('selected');
    const engine = nextChoice(start, { from: 'c7' });
    expect(engine.ok).toBe(true);
    expect(c.view.highlights.selected).toBe('c7');
    expect(c.view.highlights.optionKind).toBe('destination');
    expect([...c.view.highlights.options].sort()).toEqual(engine.ok && 'options' in engine.value ? [...engine.value.options].sort() : null);
    expect(c.view.prompt.key).toBe('destination');
    expect(c.view.canUndo).toBe(true);
  });

  test('clicking the selected piece again deselects it', () => {
    const { c } = setup(start, 'R');
    c.click('c7');
    expect(c.click('c7')).toBe('deselected');
    expect(c.view.highlights.selected).toBeNull();
    expect(c.view.prompt.key).toBe('piece');
  });

  test('clicking another movable piece switches the selection', () => {
    const { c } = setup(start, 'R');
    c.click('c7');
    expect(c.click('b7')).toBe('selected');
    expect(c.view.highlights.selected).toBe('b7');
  });

  test('clicking an empty square that is no destination drops the selection', () => {
    const { c } = setup(start, 'R');
    c.click('c7');
    expect(c.click('i5')).toBe('deselected');
    expect(c.view.highlights.selected).toBeNull();
  });

  test('clicking an own piece that cannot move is flagged, an empty square ignored', () => {
    const { c } = setup(start, 'R');
    expect(c.click('a9')).toBe('illegal'); // the chief is boxed in at the start
    expect(c.view.error).not.toBeNull();
    expect(c.click('e4')).toBe('ignored');
    expect(c.view.error).toBeNull();
  });
});

describe('simple turns', () => {
  const start = initialPosition();

  test('click-click sends the turn at once without confirmation', () => {
    const { c, sent } = setup(start, 'R');
    c.click('c7');
    expect(c.click('d6')).toBe('submitted');
    expect(sent).toEqual([{ from: 'c7', to: 'd6' }]);
    expect(c.view.sending).toBe(true);
    expect(c.view.prompt.key).toBe('sending');
    expect(c.view.interactive).toBe(false);
    expect(c.click('b7')).toBe('ignored');
    expect(sent).toHaveLength(1);
  });

  test('with confirmation the turn waits, shows its preview, and is sent on confirm', () => {
    const { c, sent } = setup(start, 'R', true);
    c.click('c7');
    expect(c.click('d6')).toBe('complete');
    expect(sent).toEqual([]);
    expect(c.view.prompt.key).toBe('confirm');
    expect(c.view.pending).toEqual({ from: 'c7', to: 'd6' });
    expect(c.view.preview.moved.get('c7')).toBe('d6');
    expect(c.confirm()).toBe('submitted');
    expect(sent).toEqual([{ from: 'c7', to: 'd6' }]);
  });

  test('clicking the last chosen square again confirms', () => {
    const { c, sent } = setup(start, 'R', true);
    c.click('c7');
    c.click('d6');
    expect(c.click('d6')).toBe('submitted');
    expect(sent).toHaveLength(1);
  });

  test('undo from the confirmation goes back to the destination', () => {
    const { c, sent } = setup(start, 'R', true);
    c.click('c7');
    c.click('d6');
    expect(c.undo()).toBe('undone');
    expect(c.view.pending).toBeNull();
    expect(c.view.prompt.key).toBe('destination');
    expect(c.undo()).toBe('undone');
    expect(c.view.prompt.key).toBe('piece');
    expect(c.undo()).toBe('ignored');
    expect(sent).toEqual([]);
  });

  test('turning confirmation off sends a waiting turn', () => {
    const { c, sent } = setup(start, 'R', true);
    c.click('c7');
    c.click('d6');
    c.setConfirm(false);
    expect(sent).toEqual([{ from: 'c7', to: 'd6' }]);
  });

  test('drag and drop', () => {
    const { c, sent } = setup(start, 'R');
    expect(c.canDrag('c7')).toBe(true);
    expect(c.canDrag('a9')).toBe(false);
    expect(c.canDrag('g7')).toBe(false);
    expect(c.drop('c7', 'i1')).toBe('illegal');
    expect(sent).toEqual([]);
    expect(c.drop('c7', 'd6')).toBe('submitted');
    expect(sent).toEqual([{ from: 'c7', to: 'd6' }]);
  });

  test('a drop on the same square does nothing', () => {
    const { c } = setup(start, 'R');
    expect(c.drop('c7', 'c7')).toBe('ignored');
  });

  test('typed squares play a turn; bad text is refused', () => {
    const { c, sent } = setup(start, 'R');
    expect(c.input('zz')).toBe('illegal');
    expect(c.view.error).toBe('bad_square');
    expect(c.input('c7')).toBe('selected');
    expect(c.input(' D6 ')).toBe('submitted');
    expect(sent).toEqual([{ from: 'c7', to: 'd6' }]);
  });

  test('a whole turn can be typed at once', () => {
    const { c, sent } = setup(start, 'R');
    expect(c.input('c7-d6')).toBe('submitted');
    expect(sent).toEqual([{ from: 'c7', to: 'd6' }]);
  });

  test.each(['c7d6', 'c7 d6', 'C7 - D6'])('typed squares %j may run together or be separated', (text) => {
    const { c, sent } = setup(start, 'R');
    expect(c.input(text)).toBe('submitted');
    expect(sent).toEqual([{ from: 'c7', to: 'd6' }]);
  });

  test.each([
    ['square', {}, ['a7-a5', 'h7-h6', 'h3-h4', 'c3-c4'], 'a5xa3>e9'],
    ['hex3', { board: 'hex3', players: 3 }, ['C5-D5', 'F7-C1'], 'e1xC1>D1'],
  ] as const)('a kill typed in notation on the %s board plays the whole turn', (_, rules, before, typed) => {
    let pos = initialPosition({ ...DEFAULT_RULES, ...rules });
    for (const text of before) {
      const turn = parseTurn(text, pos.geometry);
      if (!turn.ok) throw new Error(text);
      const res = playTurn(pos, turn.value);
      if (!res.ok) throw new Error(res.error.message);
      pos = res.value.position;
    }
    const { c, sent } = setup(pos, pos.toMove);
    expect(c.input(typed)).toBe('submitted');
    expect(sent).toHaveLength(1);
    const { from, to, placement } = sent[0] as MoveTurn;
    expect([from, to, placement].join(' ').toUpperCase()).toBe(
      typed
        .toUpperCase()
        .match(/[A-Z]\d/g)!
        .join(' '),
    );
  });

  test.each(['c 7', 'c7d', 'c7x6', 'c7xx6', 'xc7', 'j1', 'a0', '!!'])('typed text %j that is not all squares is refused', (text) => {
    const { c, sent } = setup(start, 'R');
    expect(c.input(text)).toBe('illegal');
    expect(c.view.error).toBe('bad_square');
    expect(sent).toEqual([]);
  });

  test('the server’s refusal restarts the turn and keeps the code', () => {
    const { c } = setup(start, 'R');
    c.click('c7');
    c.click('d6');
    c.rejected('stale');
    expect(c.view.sending).toBe(false);
    expect(c.view.error).toBe('stale');
    expect(c.view.prompt.key).toBe('piece');
    expect(c.view.interactive).toBe(true);
  });

  test('a new position drops the turn being built; the same one keeps it', () => {
    const { c } = setup(start, 'R', true);
    c.click('c7');
    c.setPosition(start, 'R');
    expect(c.view.highlights.selected).toBe('c7');
    const next = playTurn(start, { from: 'b7', to: 'd5' });
    expect(next.ok).toBe(true);
    if (!next.ok) return;
    c.setPosition(next.value.position, 'R');
    expect(c.view.highlights.selected).toBeNull();
    expect(c.view.prompt).toEqual({ key: 'notYourTurn', colour: 'B' });
  });

  test('listeners hear every change', () => {
    const { c } = setup(start, 'R');
    const seen: string[] = [];
    const off = c.subscribe((v: ControllerView) => seen.push(v.prompt.key));
    c.click('c7');
    c.click('c7');
    off();
    c.click('c7');
    expect(seen).toEqual(['destination', 'piece']);
  });
});

describe('multi-step turns', () => {
  test('a militant kill asks where to place the corpse', () => {
    const pos = position([...CHIEFS, 'Rm:c5', 'Bm:d5']);
    const { c, sent } = setup(pos, 'R');
    c.click('c5');
    expect(c.view.highlights.options).toContain('d5');
    expect(c.click('d5')).toBe('chosen');
    const engine = nextChoice(pos, { from: 'c5', to: 'd5' });
    expect(engine.ok && engine.value.kind).toBe('placement');
    expect(c.view.prompt.key).toBe('placement');
    expect(c.view.highlights.optionKind).toBe('placement');
    expect([...c.view.highlights.options].sort()).toEqual(engine.ok && 'options' in engine.value ? [...engine.value.options].sort() : null);
    expect(c.view.highlights.chosen).toEqual(['d5']);
    // The victim is lifted until it is placed; the mover is shown on its destination.
    expect(c.view.preview.lifted).toEqual(['d5']);
    expect(c.view.preview.moved.get('c5')).toBe('d5');
    // A square that is not offered is refused.
    expect(c.click('e5')).toBe('illegal');
    expect(c.click('a5')).toBe('submitted');
    expect(sent).toEqual([{ from: 'c5', to: 'd5', placement: 'a5' }]);
    expect(playTurn(pos, sent[0]).ok).toBe(true);
  });

  test('undo takes back the placement step only', () => {
    const pos = position([...CHIEFS, 'Rm:c5', 'Bm:d5']);
    const { c } = setup(pos, 'R', true);
    c.click('c5');
    c.click('d5');
    c.click('a5');
    expect(c.view.prompt.key).toBe('confirm');
    expect(c.view.preview.killed).toEqual(['d5']);
    c.undo();
    expect(c.view.prompt.key).toBe('placement');
    c.undo();
    expect(c.view.prompt.key).toBe('destination');
  });

  test('the reporter asks for a victim; "no kill" sends the turn without one', () => {
    const pos = position([...CHIEFS, 'Rr:c3', 'Bm:e4']);
    const { c, sent } = setup(pos, 'R');
    c.click('c3');
    c.click('d4');
    expect(c.view.prompt.key).toBe('reporter');
    expect(c.view.highlights.optionKind).toBe('reporter');
    expect(c.view.highlights.options).toEqual(['e4']);
    expect(c.view.canSkipKill).toBe(true);
    expect(c.noKill()).toBe('submitted');
    expect(sent).toHaveLength(1);
    expect(sent[0]).toEqual({ from: 'c3', to: 'd4' });
    expect(playTurn(pos, sent[0]).ok).toBe(true);
  });

  test('tapping the reporter again also declines; a victim can be named', () => {
    const pos = position([...CHIEFS, 'Rr:c3', 'Bm:e4']);
    const a = setup(pos, 'R');
    a.c.click('c3');
    a.c.click('d4');
    expect(a.c.click('d4')).toBe('submitted');
    expect(a.sent[0]).toEqual({ from: 'c3', to: 'd4' });
    const b = setup(pos, 'R');
    b.c.click('c3');
    b.c.click('d4');
    expect(b.c.click('e4')).toBe('submitted');
    expect(b.sent[0]).toEqual({ from: 'c3', to: 'd4', reporterTarget: 'e4' });
    expect(playTurn(pos, b.sent[0]).ok).toBe(true);
  });

  test('a mandatory reporter kill cannot be skipped', () => {
    const pos = position([...CHIEFS, 'Rr:c3', 'Bm:e4'], 'R', { reporter: 'mandatory_single' });
    const { c } = setup(pos, 'R');
    c.click('c3');
    c.click('d4');
    expect(c.view.prompt.key).toBe('reporterRequired');
    expect(c.view.canSkipKill).toBe(false);
    expect(c.noKill()).toBe('ignored');
    expect(c.click('d4')).toBe('illegal');
    expect(c.input('x')).toBe('ignored');
  });

  test('a chief entering the empty maze completes at once', () => {
    const pos = position(['Rc:c3', 'Bc:i9', 'Yc:i1', 'Gc:a1']);
    const { c, sent } = setup(pos, 'R');
    c.click('c3');
    expect(c.view.highlights.options).toContain('e5');
    expect(c.click('e5')).toBe('submitted');
    expect(sent).toEqual([{ from: 'c3', to: 'e5' }]);
  });

  test('a diplomat dislodging the ruler asks for the exit, then the placement', () => {
    const pos = position(['Rc:a9', 'Bc:e5', 'Yc:i1', 'Gc:a1', 'Rd:c3'], 'R');
    const { c, sent } = setup(pos, 'R');
    c.click('c3');
    expect(c.view.highlights.options).toContain('e5');
    c.click('e5');
    const first = nextChoice(pos, { from: 'c3', to: 'e5' });
    expect(first.ok && first.value.kind).toBe('exit');
    expect(c.view.prompt.key).toBe('exit');
    const exits = c.view.highlights.options;
    expect(exits.length).toBeGreaterThan(0);
    c.click(exits[0]);
    expect(c.view.prompt.key).toBe('placementDisplaced');
    const places = c.view.highlights.options;
    expect(places).not.toContain('e5');
    c.click(places[0]);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ from: 'c3', to: 'e5', exit: exits[0], placement: places[0] });
    expect(playTurn(pos, sent[0]).ok).toBe(true);
  });

  test('under act_place_exit the placement comes first', () => {
    const pos = position(['Rc:a9', 'Bc:e5', 'Yc:i1', 'Gc:a1', 'Rd:c3'], 'R', { maze_exit_order: 'act_place_exit' });
    const { c, sent } = setup(pos, 'R');
    c.click('c3');
    c.click('e5');
    expect(c.view.prompt.key).toBe('placementDisplaced');
    c.click(c.view.highlights.options[0]);
    expect(c.view.prompt.key).toBe('exit');
    c.click(c.view.highlights.options[0]);
    expect(sent).toHaveLength(1);
    expect(playTurn(pos, sent[0]).ok).toBe(true);
  });

  test('a diplomat displacing a piece asks where to put it', () => {
    const pos = position([...CHIEFS, 'Rd:c3', 'Bm:c6']);
    const { c, sent } = setup(pos, 'R');
    c.click('c3');
    c.click('c6');
    expect(c.view.prompt.key).toBe('placementDisplaced');
    expect(c.view.preview.lifted).toEqual(['c6']);
    c.click('h5');
    expect(sent).toEqual([{ from: 'c3', to: 'c6', placement: 'h5' }]);
  });

  test('a necromobile moving a corpse asks where to put the corpse', () => {
    const pos = position([...CHIEFS, 'Rn:c3', 'xBm:c6']);
    const { c, sent } = setup(pos, 'R');
    c.click('c3');
    c.click('c6');
    expect(c.view.prompt.key).toBe('placementCorpse');
    c.click('h5');
    expect(sent).toEqual([{ from: 'c3', to: 'c6', placement: 'h5' }]);
  });

  test('an assassin’s kill completes without a placement question', () => {
    const pos = position([...CHIEFS, 'Ra:c3', 'Bm:c6']);
    const { c, sent } = setup(pos, 'R');
    c.click('c3');
    c.click('c6');
    expect(sent).toEqual([{ from: 'c3', to: 'c6' }]);
  });
});

describe('every offered option is accepted by the engine', () => {
  test('walking the controller through all legal turns of a few positions', () => {
    const start = initialPosition();
    const positions: Position[] = [start];
    let pos = start;
    for (const t of legalTurns(start).slice(0, 3)) {
      const r = playTurn(pos, t);
      if (r.ok) positions.push(r.value.position);
      pos = start;
    }
    positions.push(position([...CHIEFS, 'Rm:c5', 'Bm:d5', 'Rr:c3', 'Bm:e4', 'Rd:g3', 'Yn:g4']));
    for (const p of positions) {
      const seat = p.toMove!;
      const engineTurns = new Set(legalTurns(p).map((t) => JSON.stringify(t)));
      // Follow the first option at each step, then check the turn was a legal one.
      const { c, sent } = setup(p, seat);
      for (let guard = 0; guard < 6 && sent.length === 0; guard++) {
        const opts = c.view.highlights.options;
        if (c.view.canSkipKill) c.noKill();
        else if (opts.length) c.click(opts[0]);
        else break;
      }
      expect(sent).toHaveLength(1);
      expect(playTurn(p, sent[0]).ok).toBe(true);
      expect(engineTurns.size).toBeGreaterThan(0);
    }
  });
});
