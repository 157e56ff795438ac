/**
 * Computer players (issue 12): the bot brain (evaluation, candidate turns, search per level),
 * its worker pool, and pact decisions and table messages. No Colyseus import; the room
 * integration drives `BotPool.think` and plays the answer through the ordinary match intents.
 */
export {
  BOT_LEVELS,
  LEVEL_NODES,
  LEVEL_TIME_MS,
  chooseTurn,
  fallbackTurn,
  type BotLevel,
  type Decision,
  type Personality,
  type ThinkOptions,
} from './search.js';
export { BotPool, DEFAULT_GRACE_MS, DEFAULT_MAX_QUEUE, PACT_BUDGET_MS, type BotAnswer, type BotPoolOptions, type BotPoolStats } from './pool.js';
export { candidateTurns, type Widths } from './candidates.js';
export { scores, utility, WEIGHTS, DECISIVE, type Weights, type EvalOptions } from './evaluate.js';
export {
  clearLeader,
  decidePact,
  drawPersonality,
  isClearLeader,
  leaveMessage,
  Negotiator,
  pactValue,
  shouldLeavePact,
  tableMessage,
  trustOf,
  PACT_THRESHOLD,
  MAX_ACCEPTED_ROUNDS,
  MIN_TRUST,
  FULL_TRUST,
  PERSONALITY_WEIGHTS,
  PROPOSED_ROUNDS,
  PROPOSAL_COOLDOWN_ROUNDS,
  MAX_PROPOSALS,
  type PactAsk,
  type PressPlan,
  type PactDecision,
  type PactProposal,
  type PactReason,
  type BetrayalRecord,
} from './pact.js';
export { seededRandom, decisionSeed, type Random } from './rng.js';
export { playBotGame, sideShare, type Player, type SelfPlayGame, type SelfPlayOptions, type Think } from './selfplay.js';
