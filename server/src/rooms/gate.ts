/**
 * The frame gate of a room: every message frame a client sends spends the connection's message
 * budget before Colyseus decodes it (`VendorRoom.admitFrame`). A refusal is answered to the
 * sender; a flood is closed with 1008. Raw byte messages are no part of the protocol.
 */
import { type Client, Protocol } from '@colyseus/core';
import { decode } from '@colyseus/schema';
import type { Rejection } from '../errors.js';
import { type BudgetLimits, frameCost, MessageBudget } from './budget.js';

/** Answers a refused frame to its sender. */
export type Reply = (client: Client, type: string, rejection: Rejection) => void;

/** The budgets of a room's connections. */
export class FrameGate {
  private readonly budgets = new WeakMap<Client, MessageBudget>();

  constructor(private readonly limits: BudgetLimits) {}

  /** True when Colyseus may decode and dispatch the frame. */
  admit(client: Client, frame: Buffer, now: number, reply: Reply): boolean {
    let budget = this.budgets.get(client);
    if (!budget) this.budgets.set(client, (budget = new MessageBudget(this.limits)));
    const verdict = budget.take(now, frameCost(frame.length));
    if (verdict === 'close') {
      client.leave(1008, 'message budget exceeded');
      return false;
    }
    if (verdict === 'limited') {
      // Every refused message is answered (never a silent drop): a client that waits
      // `retryAfterMs` and resends gets through; one that keeps flooding runs out of strikes.
      reply(client, typeOf(frame), { code: 'rate_limited', message: 'too many messages', retryAfterMs: budget.retryAfterMs() });
      return false;
    }
    if (frame[0] === Protocol.ROOM_DATA_BYTES) {
      reply(client, typeOf(frame), { code: 'bad_payload', message: 'raw byte messages are not part of the protocol' });
      return false;
    }
    return true;
  }
}

/** The message type a frame names, for a refusal ('?' if undecodable). */
function typeOf(frame: Buffer): string {
  try {
    const it = { offset: 1 };
    return String(decode.stringCheck(frame, it) ? decode.string(frame, it) : decode.number(frame, it)).slice(0, 64);
  } catch {
    return '?';
  }
}
