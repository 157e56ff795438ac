/**
 * Entry of the bot worker thread (`worker_threads`): answers `{ id, position, options }` with
 * `{ id, decision }`, one request at a time, in the order received. Built by tsc to
 * server/dist/bots/worker.js (production); under jest or tsx `pool.ts` loads this source file
 * through tsx. The only I/O of the bots is this message port.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { chooseTurn } from './search.js';
import type { WorkerReply, WorkerRequest } from './protocol.js';

const port = parentPort;
if (!port) throw new Error('bots/worker.ts must run in a worker thread');
const testHooks = (workerData as { testHooks?: boolean } | null)?.testHooks === true;

port.on('message', (req: WorkerRequest) => {
  if (testHooks && req.test === 'crash') throw new Error('bot worker crash requested by a test');
  if (testHooks && req.test === 'hang') for (;;);
  let reply: WorkerReply;
  try {
    reply = { id: req.id, decision: chooseTurn(req.position, req.options) };
  } catch (e) {
    reply = { id: req.id, error: e instanceof Error ? e.message : String(e) };
  }
  port.postMessage(reply);
});
port.postMessage({ id: -1, ready: true } satisfies WorkerReply);
