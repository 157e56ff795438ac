/**
 * `mirror` is the only writer of the room schema: it copies the room model (seats, game,
 * clocks, the press's public draw offer) into the synced state. Nothing else of the press (no
 * channel, message, pact or count) is ever written here. Schema setters skip unchanged values, so writing
 * every field is cheap and produces minimal patches.
 */
import type { ArraySchema } from '@colyseus/schema';
import { activePlayers, COLOURS, type Colour, controllerOf, makeFen, ruler } from '@djambi/shared';
import type { Match } from '../match/match.js';
import type { Connections } from './connections.js';
import { type DjambiState, EliminationState, SeatState } from './schema.js';

export type { Phase } from '../match/match.js';

/** Everything `mirror` reads: the match, the seats' connections, and what only the room knows. */
export interface RoomModel {
  readonly code: string;
  readonly match: Match;
  readonly links: Connections;
  readonly spectators: number;
}

/** Copies the model into `state`. */
export function mirror(model: RoomModel, state: DjambiState): void {
  const match = model.match;
  state.code = model.code;
  state.phase = match.phase;
  state.visibility = match.config.visibility;
  state.press_visibility = match.config.press.press_visibility;
  state.reveal_press_after_game = match.config.press.reveal_press_after_game;
  state.spectators = model.spectators;
  mirrorRules(model, state);
  mirrorSeats(model, state);
  mirrorPosition(model, state);
  mirrorMoves(model, state);
  mirrorClock(model, state);
  const offer = match.press.draws.current();
  state.drawOffer.id = offer?.id ?? 0;
  state.drawOffer.by = offer?.by ?? '';
  state.drawOffer.accepted = offer ? COLOURS.filter((c) => offer.accepted.includes(c)).join('') : '';
}

function mirrorRules(model: RoomModel, state: DjambiState): void {
  const r = model.match.config.rules;
  const s = state.rules;
  s.players = r.players;
  s.layout = r.layout;
  s.reporter = r.reporter;
  s.self_kill = r.self_kill;
  s.maze_exit_order = r.maze_exit_order;
  s.encirclement = r.encirclement;
  s.neutral_pieces_untouchable = r.neutral_pieces_untouchable;
  s.encircled_chief = r.encircled_chief;
  s.power_transfer_of_neutral_armies = r.power_transfer_of_neutral_armies;
  s.master_moves = r.master_moves;
  s.no_progress_rounds = r.no_progress_rounds;
}

function mirrorSeats(model: RoomModel, state: DjambiState): void {
  const match = model.match;
  const active = match.phase === 'waiting' ? null : new Set<Colour>(activePlayers(match.position));
  const creator = match.seats.creatorColour();
  state.creator = creator ?? '';
  for (const seat of match.seats.seats.values()) {
    const link = model.links.of(seat.colour);
    let s = state.seats.get(seat.colour);
    if (!s) {
      s = new SeatState();
      s.colour = seat.colour;
      state.seats.set(seat.colour, s);
    }
    s.name = seat.name;
    s.taken = seat.keyHash !== null;
    s.presence = link.presence;
    s.since = link.since;
    s.creator = seat.colour === creator;
    s.active = active === null ? true : active.has(seat.colour);
    s.swapWith = seat.swapWith ?? '';
    s.ready = seat.ready;
    s.clockMs = match.clock ? (match.clock.remaining.get(seat.colour) ?? 0) : 0;
  }
}

function mirrorPosition(model: RoomModel, state: DjambiState): void {
  const pos = model.match.position;
  state.fen = makeFen(pos);
  state.toMove = model.match.phase === 'playing' ? (pos.toMove ?? '') : '';
  state.turnKind = pos.turnKind;
  state.ply = pos.ply;
  state.quiet = pos.quiet;
  state.ruler = ruler(pos) ?? '';
  for (const army of COLOURS) state.control.set(army, controllerOf(pos, army) ?? '');

  const act = activePlayers(pos);
  setStrings(state.active, act);

  for (let i = state.eliminations.length; i < pos.eliminations.length; i++) {
    const e = pos.eliminations[i];
    const s = new EliminationState();
    s.colour = e.colour;
    s.cause = e.cause;
    s.by = e.by ?? '';
    s.ply = e.ply;
    state.eliminations.push(s);
  }

  const result = pos.result;
  if (result && state.result.kind === '') {
    state.result.winner = result.kind === 'win' ? result.winner : '';
    state.result.reason = result.kind === 'draw' ? result.reason : '';
    for (const group of result.ranking) state.result.ranking.push(group.join(''));
    state.result.kind = result.kind;
  }
}

function mirrorMoves(model: RoomModel, state: DjambiState): void {
  const game = model.match.game;
  for (let i = state.moves.length; i < game.length; i++) state.moves.push(game.move(i));
  state.version = game.length;
}

function mirrorClock(model: RoomModel, state: DjambiState): void {
  const c = model.match.clock;
  const config = model.match.config.clock;
  state.clock.enabled = c !== null;
  state.clock.initialMs = config?.initialMs ?? 0;
  state.clock.incrementMs = config?.incrementMs ?? 0;
  state.clock.running = c?.running ?? '';
  state.clock.turnStartedAt = c?.running ? c.startedAt : 0;
}

/** Makes `target` equal `values` using index writes and pops only (no array surgery). */
function setStrings(target: ArraySchema<string>, values: readonly string[]): void {
  for (let i = 0; i < values.length; i++) {
    if (i < target.length) {
      if (target[i] !== values[i]) target[i] = values[i];
    } else {
      target.push(values[i]);
    }
  }
  while (target.length > values.length) target.pop();
}
