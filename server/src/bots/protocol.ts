/** Messages between the bot pool (main thread) and its worker: plain, structured-clone data. */
import type { Colour, Position } from '@djambi/shared';
import type { BetrayalRecord, PactDecision, PactProposal } from './pact.js';
import type { Decision, Personality, ThinkOptions } from './search.js';

/** A decision request; `test` is honoured only by a worker started with test hooks. */
export interface ThinkRequest {
  readonly id: number;
  readonly kind?: 'think';
  readonly position: Position;
  readonly options: Omit<ThinkOptions, 'now'>;
  readonly test?: 'crash' | 'hang';
}

/** A pact valuation request: `pactValue` of `me` for a pact with each group of partners (notes §6.1 rule 2). */
export interface PactRequest {
  readonly id: number;
  readonly kind: 'pact';
  readonly position: Position;
  readonly me: Colour;
  readonly groups: readonly (readonly Colour[])[];
  /** The betrayals `me` may see (trust in each partner). */
  readonly betrayals: readonly BetrayalRecord[];
}

/** A proposal to answer (`decidePact` of `me`, with its personality's weights). */
export interface AnswerRequest {
  readonly id: number;
  readonly kind: 'answer';
  readonly position: Position;
  readonly me: Colour;
  readonly proposal: PactProposal;
  readonly betrayals: readonly BetrayalRecord[];
  readonly personality: Personality;
}

/** What the pool sends its worker. */
export type WorkerRequest = ThinkRequest | PactRequest | AnswerRequest;

/** The worker's answer to request `id` (`id: -1, ready`: the worker has started). */
export interface WorkerReply {
  readonly id: number;
  readonly decision?: Decision;
  /** The values of a `pact` request, one per group, in militants. */
  readonly values?: number[];
  /** The answer of an `answer` request. */
  readonly answer?: PactDecision;
  readonly error?: string;
  readonly ready?: boolean;
}
