/**
 * The after-game reveal: every pact and betrayal, the table, and (room option
 * `reveal_press_after_game`, default on) every private, group and spectator conversation, in
 * the order things happened. Each item carries `ply`, the turn in progress when it happened.
 * Each revealed channel brings only its latest `HISTORY_MESSAGES` messages (its `more` tells
 * whether there are older ones, which members page with `press_page`), so the reveal, sent to
 * everyone and in every later history, stays bounded.
 */
import type { Channels } from './channels.js';
import type { Draws } from './draws.js';
import type { Pacts } from './pacts.js';
import type { PressReveal, RevealItem } from './types.js';

/** Builds the reveal from a room's press state. */
export function buildReveal(channels: Channels, pacts: Pacts, draws: Draws, conversations: boolean): PressReveal {
  const ch = channels.revealItems(conversations);
  const items: { seq: number; item: RevealItem }[] = [...ch.items, ...pacts.revealItems(), ...draws.revealItems()];
  items.sort((a, b) => a.seq - b.seq);
  return {
    conversations,
    channels: ch.channels,
    pacts: pacts.allViews(),
    betrayals: pacts.allBetrayals(),
    timeline: items.map((x) => x.item),
  };
}
