/**
 * `npm run -s perft -- DEPTH [POSITION] [--rules JSON] [--board NAME]`: count complete turns (from
 * the standard start by default). `--board hex3` counts on the small hex board (shared/src/board/),
 * from its start with every seat a player, and reads POSITION as that board's.
 */
import {
  COLOURS,
  DEFAULT_RULES,
  type GeometryName,
  GEOMETRIES,
  initialPosition,
  isGeometryName,
  parseFen,
  parseRules,
  perft,
  setupPosition,
  startPieces,
} from '../../shared/src/index.js';

const args = process.argv.slice(2);
const rulesAt = args.indexOf('--rules');
let rules = DEFAULT_RULES;
if (rulesAt >= 0) {
  let parsed: unknown;
  try {
    parsed = JSON.parse(args[rulesAt + 1] ?? '');
  } catch {
    parsed = undefined;
  }
  const r = parseRules(parsed);
  if (!r.ok) {
    console.error(`bad --rules: ${r.ok === false ? r.error.message : ''}`);
    process.exit(2);
  }
  rules = r.value;
  args.splice(rulesAt, 2);
}
const boardAt = args.indexOf('--board');
let board: GeometryName = 'square';
if (boardAt >= 0) {
  const name = args[boardAt + 1];
  if (!isGeometryName(name)) {
    console.error(`bad --board: one of ${Object.keys(GEOMETRIES).join(', ')}`);
    process.exit(2);
  }
  board = name;
  args.splice(boardAt, 2);
}
const depth = Number(args[0]);
if (!Number.isInteger(depth) || depth < 0 || depth > 8) {
  console.error('usage: npm run -s perft -- DEPTH [POSITION] [--rules JSON] [--board NAME]   (DEPTH 0..8; POSITION in docs/NOTATION.md form)');
  process.exit(2);
}
const text = args.slice(1).join(' ').trim();
let pos = initialPosition(rules);
if (text) {
  const parsed = parseFen(text, rules, board);
  if (!parsed.ok) {
    console.error(`bad position: ${parsed.error.message}`);
    process.exit(2);
  }
  pos = parsed.value;
} else if (board !== 'square') {
  // Every seat of the board is a player (its turn rules, hostages included, are issue 39's next slice).
  const pieces = startPieces(board, rules.layout);
  const seats = COLOURS.slice(0, GEOMETRIES[board].seats);
  const start = pieces && setupPosition({ pieces, active: seats, toMove: 'R' }, rules, board);
  if (!start?.ok) {
    console.error(`no start position on ${board} yet: its ${GEOMETRIES[board].seats} armies need more colours than ${COLOURS.join('')}`);
    process.exit(2);
  }
  pos = start.value;
}
console.log(perft(pos, depth));
