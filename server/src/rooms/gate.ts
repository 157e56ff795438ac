/**
 * The frame gate of a room: every frame a client sends passes the connection's message budget
 * and a structural msgpack check before Colyseus decodes it. A refusal is answered to the
 * sender; a flood is closed with 1008.
 */
import type { Client } from '@colyseus/core';
import type { Rejection } from '../errors.js';
import { type BudgetLimits, frameCost, MessageBudget } from './budget.js';
import type { Frame } from './internals.js';
import { checkMsgpack } from './msgpackGuard.js';

/** Answers a refused frame to its sender. */
export type Reply = (client: Client, type: string, rejection: Rejection) => void;

/**
 * Where a connection's budget is kept: on its client object, which every frame reads anyway,
 * rather than in a table of the room's that would be one more place in memory to reach, cold by
 * the room's next turn. (A client lives as long as its connection; one that comes back is a new
 * client with a fresh budget, as before.)
 */
const BUDGET = Symbol('djambi.budget');

type Budgeted = Client & { [BUDGET]?: MessageBudget };

/** The budgets of a room's connections. */
export class FrameGate {
  constructor(private readonly limits: BudgetLimits) {}

  /** True when Colyseus may decode and dispatch the frame. */
  admit(client: Budgeted, frame: Frame, now: number, reply: Reply): boolean {
    let budget = client[BUDGET];
    if (!budget) {
      budget = new MessageBudget(this.limits);
      client[BUDGET] = budget;
    }
    const verdict = budget.take(now, frameCost(frame.buffer.length));
    if (verdict === 'close') {
      client.leave(1008, 'message budget exceeded');
      return false;
    }
    const type = frame.type ?? '?';
    if (verdict === 'limited') {
      // Every refused message is answered (never a silent drop): a client that waits
      // `retryAfterMs` and resends gets through; one that keeps flooding runs out of strikes.
      reply(client, type, { code: 'rate_limited', message: 'too many messages', retryAfterMs: budget.retryAfterMs() });
      return false;
    }
    const refusal = refusalOf(frame);
    if (refusal) reply(client, type, refusal);
    return refusal === null;
  }
}

function refusalOf(frame: Frame): Rejection | null {
  if (frame.type === null) return { code: 'bad_payload', message: 'undecodable message' };
  if (frame.rawBytes) return { code: 'bad_payload', message: 'raw byte messages are not part of the protocol' };
  const problem = checkMsgpack(frame.buffer, frame.payloadOffset);
  if (problem === 'too_deep') return { code: 'payload_too_large', message: 'payload nested too deeply' };
  if (problem) return { code: 'bad_payload', message: `payload refused (${problem})` };
  return null;
}
