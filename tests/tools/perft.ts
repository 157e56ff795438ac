/**
 * `npm run -s perft -- DEPTH [POSITION] [--rules JSON] [--board NAME]`: count complete turns (from
 * the start position of the rules by default). `--board hex3|hex5|hex6` sets the `board` rule
 * option (shared/variants/HEX.md): the count starts from that game's start position and reads
 * POSITION as a position of its board.
 */
import { BOARDS, parseFen, parseRules, perft, initialPosition } from '../../shared/src/index.js';

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const at = args.indexOf(name);
  if (at < 0) return undefined;
  const value = args[at + 1] ?? '';
  args.splice(at, 2);
  return value;
};
let options: Record<string, unknown> = {};
const rulesText = option('--rules');
if (rulesText !== undefined) {
  try {
    options = JSON.parse(rulesText);
  } catch {
    options = { '(not JSON)': rulesText };
  }
}
const board = option('--board');
if (board !== undefined) {
  if (!(BOARDS as readonly string[]).includes(board)) {
    console.error(`bad --board: one of ${BOARDS.join(', ')}`);
    process.exit(2);
  }
  options = { ...options, board };
}
const rules = parseRules(options);
if (!rules.ok) {
  console.error(`bad --rules: ${rules.error.message}`);
  process.exit(2);
}
const depth = Number(args[0]);
if (!Number.isInteger(depth) || depth < 0 || depth > 8) {
  console.error('usage: npm run -s perft -- DEPTH [POSITION] [--rules JSON] [--board NAME]   (DEPTH 0..8; POSITION in docs/NOTATION.md form)');
  process.exit(2);
}
const text = args.slice(1).join(' ').trim();
let pos = initialPosition(rules.value);
if (text) {
  const parsed = parseFen(text, rules.value);
  if (!parsed.ok) {
    console.error(`bad position: ${parsed.error.message}`);
    process.exit(2);
  }
  pos = parsed.value;
}
console.log(perft(pos, depth));
