/**
 * The "this turn breaks your pact" warning, headless: the controller asks `breaches` (here the
 * shared `pactBreaches` over a pact of Red and Blue) about each complete turn, shows
 * `breaksPact` with the partners for a betraying turn, holds it even with confirmation off, and
 * still sends it on confirm.
 */
import { DEFAULT_RULES, legalTurns, pactBreaches, pieces, playTurn, setupPosition, type Colour, type Position, type Turn } from '@djambi/shared';
import { GameController } from '../../client/src/game/controller.js';
import { S } from '../../client/src/i18n/strings.js';

/** Red's militant on e2 next to Blue's militant on e3. */
function position(): Position {
  const spec: [Colour, 'chief' | 'militant', string][] = [
    ['R', 'chief', 'a9'],
    ['B', 'chief', 'i9'],
    ['Y', 'chief', 'i1'],
    ['G', 'chief', 'a1'],
    ['R', 'militant', 'e2'],
    ['B', 'militant', 'e3'],
  ];
  const res = setupPosition({ pieces: spec.map(([colour, kind, square]) => ({ colour, kind, square, alive: true })), toMove: 'R' }, DEFAULT_RULES);
  if (!res.ok) throw new Error(res.error.message);
  return res.value;
}

const pos = position();

/** The squares to click for a turn (from, to, placement). */
const squares = (t: Turn): string => ('from' in t ? [t.from, t.to, t.placement].filter(Boolean).join(' ') : '');

/** The first legal simple turn whose effects satisfy `want`. */
function find(want: (kills: Colour[], moveOnly: boolean) => boolean): Turn {
  const info = pieces(pos);
  for (const t of legalTurns(pos)) {
    if (!('from' in t) || t.exit || t.reporterTarget) continue;
    const r = playTurn(pos, t);
    if (!r.ok) continue;
    const kills = r.value.effects.flatMap((e) => (e.type === 'kill' && e.by >= 0 ? [info[e.piece].colour] : []));
    if (
      want(
        kills,
        r.value.effects.every((e) => e.type === 'move'),
      )
    )
      return t;
  }
  throw new Error('no such turn');
}

const killBlue = find((kills) => kills.includes('B'));
const quiet = find((_, moveOnly) => moveOnly);

function setup(confirm: boolean, partners: Colour[] = ['B']) {
  const sent: Turn[] = [];
  const c = new GameController({
    confirm,
    onSubmit: (t: Turn) => void sent.push(t),
    breaches: (p, t) => [...pactBreaches(p, t, 'R', partners).keys()],
  });
  c.setPosition(pos, 'R');
  return { c, sent };
}

describe('pact warning', () => {
  test('at the confirm step, a kill of a partner’s piece shows breaksPact with the partner; confirm still sends', () => {
    const { c, sent } = setup(true);
    expect(c.input(squares(killBlue))).toBe('complete');
    expect(c.view.prompt).toEqual({ key: 'breaksPact', partners: ['B'] });
    expect(S.prompt.breaksPact(['Blue'])).toContain('breaks your pact with Blue');
    expect(sent).toEqual([]);
    expect(c.confirm()).toBe('submitted');
    expect(sent).toEqual([killBlue]);
  });

  test('an innocent turn asks the plain confirmation', () => {
    const { c } = setup(true);
    expect(c.input(squares(quiet))).toBe('complete');
    expect(c.view.prompt).toEqual({ key: 'confirm' });
  });

  test('with confirmation off, a betraying turn waits for a second confirm; cancel drops it', () => {
    const { c, sent } = setup(false);
    expect(c.input(squares(killBlue))).toBe('complete');
    expect(sent).toEqual([]);
    expect(c.view.prompt.key).toBe('breaksPact');
    expect(c.cancel()).toBe('deselected');
    expect(sent).toEqual([]);
    c.input(squares(killBlue));
    expect(c.input('')).toBe('submitted');
    expect(sent).toEqual([killBlue]);
  });

  test('with confirmation off, an innocent turn (or a kill of a non-partner) is sent at once', () => {
    const { c, sent } = setup(false);
    expect(c.input(squares(quiet))).toBe('submitted');
    expect(sent).toEqual([quiet]);
    const other = setup(false, ['G']);
    expect(other.c.input(squares(killBlue))).toBe('submitted');
    expect(other.sent).toEqual([killBlue]);
  });

  test('no breaches option: unchanged behaviour', () => {
    const sent: Turn[] = [];
    const c = new GameController({ onSubmit: (t: Turn) => void sent.push(t) });
    c.setPosition(pos, 'R');
    expect(c.input(squares(killBlue))).toBe('submitted');
  });
});
