/** Messages between the bot pool (main thread) and its worker: plain, structured-clone data. */
import type { Position } from '@djambi/shared';
import type { Decision, ThinkOptions } from './search.js';

/** A decision request; `test` is honoured only by a worker started with test hooks. */
export interface WorkerRequest {
  readonly id: number;
  readonly position: Position;
  readonly options: Omit<ThinkOptions, 'now'>;
  readonly test?: 'crash' | 'hang';
}

/** The worker's answer to request `id` (`id: -1, ready`: the worker has started). */
export interface WorkerReply {
  readonly id: number;
  readonly decision?: Decision;
  readonly error?: string;
  readonly ready?: boolean;
}
