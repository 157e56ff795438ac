/** Rules page: the pieces and the rules, with small diagrams drawn in plain DOM. */
import { type Colour, DIRECTIONS, KINDS, type Kind } from '@djambi/shared';
import { languageSelect } from '../i18n/languageSelect.js';
import { P, S } from '../i18n/strings.js';
import { h, link, replace } from './dom.js';
import { hexDirectionsDiagram, hexStartDiagram } from './hexDiagrams.js';

interface DiagramPiece {
  readonly at: [number, number];
  readonly colour: Colour;
  readonly kind: Kind;
  readonly alive?: boolean;
}

interface DiagramSpec {
  readonly size: number;
  readonly pieces: readonly DiagramPiece[];
  readonly dots?: readonly [number, number][];
  readonly targets?: readonly [number, number][];
  readonly places?: readonly [number, number][];
  readonly maze?: [number, number];
  readonly caption: string;
}

/** A diagram without its caption, which is read in the language in use when the page renders. */
type DiagramShape = Omit<DiagramSpec, 'caption'>;

function diagram(spec: DiagramSpec): HTMLElement {
  const key = (c: number, r: number): string => `${c},${r}`;
  const at = new Map(spec.pieces.map((p) => [key(...p.at), p]));
  const dots = new Set((spec.dots ?? []).map((d) => key(...d)));
  const targets = new Set((spec.targets ?? []).map((d) => key(...d)));
  const places = new Set((spec.places ?? []).map((d) => key(...d)));
  const cells: HTMLElement[] = [];
  for (let r = 0; r < spec.size; r++) {
    for (let c = 0; c < spec.size; c++) {
      const p = at.get(key(c, r));
      const maze = spec.maze && spec.maze[0] === c && spec.maze[1] === r;
      const cls = [
        'd-cell',
        (c + r) % 2 ? 'dark' : 'light',
        maze ? 'maze' : '',
        targets.has(key(c, r)) ? 'target' : '',
        places.has(key(c, r)) ? 'place' : '',
      ].join(' ');
      cells.push(
        h(
          'div',
          { class: cls },
          p ? h('span', { class: `d-piece ${p.alive === false ? 'dead' : `c-${p.colour}`}` }, S.kindLetter(p.kind)) : null,
          dots.has(key(c, r)) ? h('span', { class: 'd-dot' }) : null,
        ),
      );
    }
  }
  return h(
    'figure',
    { class: 'diagram' },
    h('div', { class: 'd-grid', style: `--n:${spec.size}`, role: 'img', 'aria-label': spec.caption }, ...cells),
    h('figcaption', {}, spec.caption),
  );
}

/** Lines from a square, stopping at the edge or a piece. */
function lines(size: number, from: [number, number], blockers: readonly [number, number][], max = 9): [number, number][] {
  const out: [number, number][] = [];
  const blocked = new Set(blockers.map(([c, r]) => `${c},${r}`));
  for (const [dc, dr] of DIRECTIONS) {
    for (let k = 1; k <= max; k++) {
      const c = from[0] + dc * k;
      const r = from[1] + dr * k;
      if (c < 0 || r < 0 || c >= size || r >= size || blocked.has(`${c},${r}`)) break;
      out.push([c, r]);
    }
  }
  return out;
}

const PIECE_DIAGRAMS: Record<Kind, DiagramShape> = {
  chief: {
    size: 5,
    pieces: [
      { at: [2, 2], colour: 'R', kind: 'chief' },
      { at: [4, 4], colour: 'B', kind: 'militant' },
    ],
    dots: lines(5, [2, 2], [[4, 4]]),
    targets: [[4, 4]],
  },
  assassin: {
    size: 5,
    pieces: [
      { at: [0, 4], colour: 'R', kind: 'assassin' },
      { at: [3, 1], colour: 'Y', kind: 'reporter' },
    ],
    targets: [[3, 1]],
    places: [[0, 4]],
  },
  reporter: {
    size: 5,
    pieces: [
      { at: [1, 4], colour: 'R', kind: 'reporter' },
      { at: [3, 1], colour: 'B', kind: 'militant' },
    ],
    dots: lines(5, [1, 4], [[3, 1]]),
    places: [[3, 2]],
    targets: [[3, 1]],
  },
  diplomat: {
    size: 5,
    pieces: [
      { at: [0, 0], colour: 'R', kind: 'diplomat' },
      { at: [2, 2], colour: 'B', kind: 'chief' },
    ],
    targets: [[2, 2]],
    places: [
      [4, 0],
      [4, 4],
      [0, 4],
    ],
  },
  necromobile: {
    size: 5,
    pieces: [
      { at: [4, 4], colour: 'R', kind: 'necromobile' },
      { at: [1, 1], colour: 'Y', kind: 'militant', alive: false },
    ],
    targets: [[1, 1]],
    places: [
      [0, 4],
      [4, 0],
    ],
  },
  militant: { size: 5, pieces: [{ at: [2, 2], colour: 'R', kind: 'militant' }], dots: lines(5, [2, 2], [], 2) },
};

/** The hex boards (shared/variants/HEX.md): the three games, cells, directions, fortress, hostage army, turn order. */
function hexSection(): HTMLElement {
  const X = P.rulesPage.hex;
  return h(
    'section',
    { id: 'hex-rules', class: 'hex-rules' },
    h('h2', {}, X.title),
    h('p', {}, X.intro),
    h('h3', {}, X.cellsTitle),
    h('p', {}, X.cells),
    h('div', { class: 'with-diagram' }, hexStartDiagram('hex3', X.diagrams.hex3, true), hexStartDiagram('hex6', X.diagrams.hex6, false)),
    h('h3', {}, X.smallTitle),
    h('div', { class: 'with-diagram' }, h('p', {}, X.small), hexDirectionsDiagram('hex3', X.diagrams.dirSmall)),
    h('h3', {}, X.largeTitle),
    h('div', { class: 'with-diagram' }, h('div', {}, h('p', {}, X.large), h('p', {}, X.vertexStep)), hexDirectionsDiagram('hex6', X.diagrams.dirLarge)),
    h('h3', {}, X.fortressTitle),
    h('p', {}, X.fortress),
    h('h3', {}, X.hostageTitle),
    h('p', {}, X.hostage),
    h('h3', {}, X.orderTitle),
    h('p', {}, X.order),
  );
}

/** Render the rules page; returns its cleanup. */
export function renderRules(root: HTMLElement): () => void {
  const R = P.rulesPage;
  const back = history.length > 1 ? h('button', { type: 'button', class: 'link', onclick: () => history.back() }, S.nav.back) : null;
  replace(
    root,
    h('header', { class: 'top' }, link('/', S.appName, { class: 'brand' }), h('nav', {}, back, languageSelect())),
    h(
      'main',
      { class: 'page rules' },
      h('h1', {}, R.title),
      h('p', {}, R.intro),
      h('h2', {}, R.boardTitle),
      h(
        'div',
        { class: 'with-diagram' },
        h('p', {}, R.board),
        diagram({ size: 5, maze: [2, 2], pieces: [{ at: [2, 2], colour: 'Y', kind: 'chief' }], caption: R.diagramMaze }),
      ),
      h('h2', {}, R.movesTitle),
      h('p', {}, R.moves),
      h('h2', {}, R.corpsesTitle),
      h('p', {}, R.corpses),
      h('h2', {}, R.piecesTitle),
      h(
        'div',
        { class: 'piece-grid' },
        ...KINDS.map((k) =>
          h(
            'section',
            { class: 'piece-rule' },
            h('h3', {}, h('span', { class: 'd-piece c-R' }, S.kindLetter(k)), ' ', S.kind(k)),
            h('p', {}, R.pieces[k]),
            diagram({ ...PIECE_DIAGRAMS[k], caption: R.diagrams[k] }),
          ),
        ),
      ),
      h('h2', {}, R.turnTitle),
      h('p', {}, R.turn),
      h('h2', {}, R.powerTitle),
      h('p', {}, R.power),
      h('h2', {}, R.endTitle),
      h('p', {}, R.end),
      hexSection(),
    ),
  );
  return () => undefined;
}
