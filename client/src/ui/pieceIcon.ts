/** A kind's symbol as a small inline SVG in the text's colour (the move list's piece icons). */
import type { Kind } from '@djambi/shared';
import { SYMBOL_OUTLINE, SYMBOLS } from '../render/symbols.js';

const SVG = 'http://www.w3.org/2000/svg';

/** The symbol of `kind` (decorative: the entry's text names the piece). */
export function pieceIcon(kind: Kind): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '-30 -32 60 54');
  svg.setAttribute('class', 'piece-icon');
  svg.setAttribute('aria-hidden', 'true');
  svg.dataset.kind = kind;
  for (const part of SYMBOLS[kind]) {
    let el: SVGElement;
    if ('lines' in part) {
      const l = part.lines;
      let d = '';
      for (let i = 0; i < l.length; i += 4) d += `M${l[i]} ${l[i + 1]}L${l[i + 2]} ${l[i + 3]}`;
      el = document.createElementNS(SVG, 'path');
      el.setAttribute('d', d);
      el.setAttribute('stroke-width', String(part.width));
      el.setAttribute('class', `stroke ${part.tone}`);
    } else {
      if ('poly' in part) {
        el = document.createElementNS(SVG, 'polygon');
        el.setAttribute('points', part.poly.join(' '));
      } else {
        const [x, y, w, h, r] = part.rect;
        el = document.createElementNS(SVG, 'rect');
        for (const [k, v] of [
          ['x', x],
          ['y', y],
          ['width', w],
          ['height', h],
          ['rx', r ?? 0],
        ] as const)
          el.setAttribute(k, String(v));
      }
      el.setAttribute('class', part.bare ? part.tone : `${part.tone} edged`);
      if (!part.bare) el.setAttribute('stroke-width', String(SYMBOL_OUTLINE));
    }
    svg.appendChild(el);
  }
  return svg;
}
