/**
 * The rules page's hex board diagrams, inline SVG drawn from the engine's geometry (shared
 * `GEOMETRIES`: axial (q, r) coordinates, pointy-topped cells, r growing downwards, HEX.md §2):
 * a board's start position in the six army colours, and the directions of a piece on the centre.
 */
import { ALL_COLOURS, GEOMETRIES, type GeometryName, type Kind } from '@djambi/shared';
import { S } from '../i18n/strings.js';
import { h } from './dom.js';

const SVG = 'http://www.w3.org/2000/svg';
/** Cell radius (centre to corner) in SVG units. */
const CELL = 10;
const ROOT3 = Math.sqrt(3);

type Attrs = Record<string, string | number>;

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Attrs, ...children: (SVGElement | string)[]): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.append(c);
  return el;
}

/** The centre of axial cell (q, r) on the drawing. */
const centre = (q: number, r: number): [number, number] => [CELL * ROOT3 * (q + r / 2), CELL * 1.5 * r];

/** A pointy-topped hexagon's corners round (x, y). */
function hexPoints(x: number, y: number, size = CELL): string {
  const out: string[] = [];
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 3) * i - Math.PI / 6;
    out.push(`${(x + size * Math.cos(a)).toFixed(2)},${(y + size * Math.sin(a)).toFixed(2)}`);
  }
  return out.join(' ');
}

/** The SVG drawing in a figure with its caption (the caption is also the drawing's accessible name). */
function figure(drawing: SVGSVGElement, caption: string, cls: string): HTMLElement {
  drawing.setAttribute('role', 'img');
  drawing.setAttribute('aria-label', caption);
  return h('figure', { class: `diagram ${cls}` }, drawing, h('figcaption', {}, caption));
}

/** The viewBox round every cell of a board of `radius`, with a margin. */
function viewBox(radius: number): string {
  const w = CELL * ROOT3 * (radius + 0.5) + 2;
  const hgt = CELL * (1.5 * radius + 1) + 2;
  return `${(-w).toFixed(1)} ${(-hgt).toFixed(1)} ${(2 * w).toFixed(1)} ${(2 * hgt).toFixed(1)}`;
}

/**
 * A hex board at its start (`layouts[defaultLayout]`, seat s in colour `ALL_COLOURS[s]`): the maze,
 * the fortress shaded, each piece a disc in its army's colour with its kind's letter; with
 * `names`, every empty cell shows its name.
 */
export function hexStartDiagram(geometry: Exclude<GeometryName, 'square'>, caption: string, names: boolean): HTMLElement {
  const g = GEOMETRIES[geometry];
  const pieces = new Map<number, { colour: string; kind: Kind }>();
  (g.layouts[g.defaultLayout] ?? []).forEach((camp, seat) => {
    for (const { kind, cell } of camp) pieces.set(cell, { colour: ALL_COLOURS[seat], kind });
  });
  const radius = Math.max(...g.coords.map(([q]) => Math.abs(q)));
  const drawing = svg('svg', { viewBox: viewBox(radius), class: 'hex-diagram' });
  for (let cell = 0; cell < g.cells; cell++) {
    const [x, y] = centre(...g.coords[cell]);
    const kind = cell === g.maze ? 'maze' : g.inFortress[cell] ? 'fortress' : 'plain';
    const polygon = svg('polygon', { points: hexPoints(x, y, CELL - 0.4), class: `hx ${kind}` }, svg('title', {}, g.names[cell]));
    drawing.append(polygon);
    const piece = pieces.get(cell);
    if (piece) {
      drawing.append(
        svg('circle', { cx: x.toFixed(2), cy: y.toFixed(2), r: CELL * 0.66, class: `hx-piece c-${piece.colour}` }),
        svg(
          'text',
          { x: x.toFixed(2), y: (y + 0.5).toFixed(2), class: `hx-letter${piece.colour === 'W' || piece.colour === 'Y' ? ' dark' : ''}` },
          S.kindLetter(piece.kind),
        ),
      );
    } else if (names || cell === g.maze) {
      drawing.append(svg('text', { x: x.toFixed(2), y: (y + 0.5).toFixed(2), class: `hx-name${cell === g.maze ? ' maze' : ''}` }, g.names[cell]));
    }
  }
  return figure(drawing, caption, 'hex-start');
}

/**
 * A piece on the centre of a small board of radius 2 and its steps: every direction of the board's
 * geometry as an arrow to the next cell along it, the side-crossing ones solid, the corner ones
 * dashed (the large board's 12 directions, HEX.md §2).
 */
export function hexDirectionsDiagram(geometry: Exclude<GeometryName, 'square'>, caption: string): HTMLElement {
  const g = GEOMETRIES[geometry];
  const radius = 2;
  const drawing = svg('svg', { viewBox: viewBox(radius), class: 'hex-diagram hex-directions' });
  for (let q = -radius; q <= radius; q++)
    for (let r = Math.max(-radius, -q - radius); r <= Math.min(radius, -q + radius); r++) {
      const [x, y] = centre(q, r);
      const step = g.directions.findIndex(([dq, dr]) => dq === q && dr === r);
      const cls = q === 0 && r === 0 ? 'hx plain' : step < 0 ? 'hx plain' : step < g.edgeDirections ? 'hx edge-step' : 'hx corner-step';
      drawing.append(svg('polygon', { points: hexPoints(x, y, CELL - 0.4), class: cls }));
    }
  g.directions.forEach(([dq, dr], d) => {
    const [x, y] = centre(dq, dr);
    const len = Math.hypot(x, y);
    const [ex, ey] = [x * (1 - 3 / len), y * (1 - 3 / len)];
    drawing.append(
      svg('line', {
        x1: ((x / len) * CELL * 0.7).toFixed(2),
        y1: ((y / len) * CELL * 0.7).toFixed(2),
        x2: ex.toFixed(2),
        y2: ey.toFixed(2),
        class: d < g.edgeDirections ? 'hx-arrow' : 'hx-arrow corner',
      }),
      svg('circle', { cx: ex.toFixed(2), cy: ey.toFixed(2), r: 2, class: 'hx-tip' }),
    );
  });
  drawing.append(
    svg('circle', { cx: 0, cy: 0, r: CELL * 0.66, class: 'hx-piece c-R' }),
    svg('text', { x: 0, y: 0.5, class: 'hx-letter' }, S.kindLetter('chief')),
  );
  return figure(drawing, caption, 'hex-dirs');
}
