/** `npm run -s perft -- DEPTH [POSITION] [--rules JSON]`: count complete turns (from the standard start by default). */
import { DEFAULT_RULES, initialPosition, parseFen, parseRules, perft } from '../../shared/src/index.js';

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
const depth = Number(args[0]);
if (!Number.isInteger(depth) || depth < 0 || depth > 8) {
  console.error('usage: npm run -s perft -- DEPTH [POSITION] [--rules JSON]   (DEPTH 0..8; POSITION in docs/NOTATION.md form)');
  process.exit(2);
}
const text = args.slice(1).join(' ').trim();
let pos = initialPosition(rules);
if (text) {
  const parsed = parseFen(text, rules);
  if (!parsed.ok) {
    console.error(`bad position: ${parsed.error.message}`);
    process.exit(2);
  }
  pos = parsed.value;
}
console.log(perft(pos, depth));
