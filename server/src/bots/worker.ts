/**
 * Entry of the bot worker thread (`worker_threads`): answers `{ id, position, options }` with
 * `{ id, decision }`, a pact valuation `{ id, kind: 'pact', ... }` with `{ id, values }` and a
 * proposal to answer `{ id, kind: 'answer', ... }` with `{ id, answer }`, one
 * request at a time, in the order received. Built by tsc to server/dist/bots/worker.js
 * (production); under jest or tsx `pool.ts` loads this source file through tsx. The only I/O of
 * the bots is this message port.
 */
import { constants, getPriority, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { decidePact, pactValue, trustOf } from './pact.js';
import type { WorkerReply, WorkerRequest } from './protocol.js';
import { chooseTurn } from './search.js';

const port = parentPort;
if (!port) throw new Error('bots/worker.ts must run in a worker thread');
const testHooks = (workerData as { testHooks?: boolean } | null)?.testHooks === true;

// Below the rooms' thread: on Linux a priority set with pid 0 is this thread's only, so when the
// cores are busy the event loop that answers people runs first (a search only finds less in time).
try {
  setPriority(0, Math.min(constants.priority.PRIORITY_LOW, getPriority(0) + 10));
} catch {
  /* not permitted here: the worker keeps the process's priority */
}

function answer(req: WorkerRequest): WorkerReply {
  if (req.kind === 'pact') {
    const trust = (q: Parameters<typeof trustOf>[0]) => trustOf(q, req.me, req.betrayals);
    return { id: req.id, values: req.groups.map((group) => pactValue(req.position, req.me, group, trust)) };
  }
  if (req.kind === 'answer') return { id: req.id, answer: decidePact(req.position, req.me, req.proposal, req.betrayals, req.personality) };
  return { id: req.id, decision: chooseTurn(req.position, req.options) };
}

port.on('message', (req: WorkerRequest) => {
  if (testHooks && req.kind === undefined && req.test === 'crash') throw new Error('bot worker crash requested by a test');
  if (testHooks && req.kind === undefined && req.test === 'hang') for (;;);
  let reply: WorkerReply;
  try {
    reply = answer(req);
  } catch (e) {
    reply = { id: req.id, error: e instanceof Error ? e.message : String(e) };
  }
  port.postMessage(reply);
});
port.postMessage({ id: -1, ready: true } satisfies WorkerReply);
