/** `npm run conformance -- FILE`: check the engine against a rules conformance case file. */
import { readFileSync } from 'node:fs';
import { runConformance } from './conformanceRunner.js';

const file = process.argv[2];
if (!file) {
  console.error('usage: npm run conformance -- FILE');
  process.exit(2);
}
let data: unknown;
try {
  data = JSON.parse(readFileSync(file, 'utf8'));
} catch (e) {
  console.error(`cannot read ${file}: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(2);
}
const results = runConformance(data);
for (const r of results) if (!r.passed) console.log(`FAIL ${r.id}: ${r.problems.join('; ')}`);
const failed = results.filter((r) => !r.passed).length;
console.log(`${results.length - failed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
