/**
 * `Mirror` is the only writer of the room schema: it copies the room model (seats, game, clocks,
 * the press's public draw offer) into the synced state through the schema's own setters, which
 * record a field only when its value changed. Nothing else of the press (no channel, message,
 * pact or count) is ever written here. Positions are immutable: the same Position object as last
 * time has nothing new, and its fields are skipped.
 */
import type { ArraySchema } from '@colyseus/schema';
import { COLOURS, type Colour, controllerOf, geometryOf, type Position, ruler } from '@djambi/shared';

/** An active-player mask with every seat in it. */
const ALL_SEATS = (1 << COLOURS.length) - 1;
import type { Match, Phase } from '../match/match.js';
import type { Connections } from '../table/connections.js';
import { type DjambiState, EliminationState, SeatState } from './schema.js';

/** Everything `mirror` reads: the match, the seats' connections, and what only the room knows. */
export interface RoomModel {
  readonly code: string;
  readonly match: Match;
  readonly links: Connections;
  readonly spectators: number;
  /** Seats a bot has played for while their player was away (shown while the player still is). */
  readonly standIns?: ReadonlySet<Colour>;
}

/** Writes a room model into one state. */
export class Mirror {
  /** The position last written (with the phase it was written for). */
  private position: Position | null = null;
  private positionPhase: Phase | null = null;
  private settingsWritten = false;

  constructor(private readonly state: DjambiState) {}

  /** Copies the model into the state. */
  write(model: RoomModel): void {
    const { match } = model;
    const state = this.state;
    if (!this.settingsWritten) {
      this.settingsWritten = true;
      writeSettings(match, state);
    }
    state.code = model.code;
    state.phase = match.phase;
    state.spectators = model.spectators;
    writeSeats(model, state);
    writeList(state.spectatorNames, spectatorNames(match));
    if (this.position !== match.position || this.positionPhase !== match.phase) {
      this.position = match.position;
      this.positionPhase = match.phase;
      writePosition(match.position, match.phase, state);
    }
    const game = match.game;
    for (let i = state.moves.length; i < game.length; i++) state.moves.push(game.move(i));
    state.version = game.length;
    writeClock(match, state);
    writeOffer(match, state);
  }
}

/** The room's settings: they never change after the room is made. */
function writeSettings(match: Match, state: DjambiState): void {
  const config = match.config;
  state.visibility = config.visibility;
  state.press_visibility = config.press.press_visibility;
  state.reveal_press_after_game = config.press.reveal_press_after_game;
  const r = config.rules;
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
  s.board = r.board ?? '';
  s.vertex_step = r.vertex_step ?? '';
  s.hostage_seat = r.hostage_seat ?? 0;
  state.clock.initialMs = config.clock?.initialMs ?? 0;
  state.clock.incrementMs = config.clock?.incrementMs ?? 0;
}

function writeSeats(model: RoomModel, state: DjambiState): void {
  const match = model.match;
  // Before the start every seat shows as active.
  const activeMask = match.phase === 'waiting' ? ALL_SEATS : match.position.activeMask;
  const creator = match.seats.creatorColour() ?? '';
  state.creator = creator;
  state.host = match.seats.hostColour() ?? '';
  const clock = match.clock;
  for (const seat of match.seats.seats.values()) {
    const colour = seat.colour;
    const link = model.links.of(colour);
    let x = state.seats.get(colour);
    if (!x) {
      x = new SeatState();
      x.colour = colour;
      state.seats.set(colour, x);
    }
    x.name = seat.name;
    x.taken = seat.keyHash !== null;
    x.presence = link.presence;
    x.since = link.since;
    x.creator = colour === creator;
    x.active = ((activeMask >> COLOURS.indexOf(colour)) & 1) === 1;
    x.swapWith = seat.swapWith ?? '';
    x.ready = seat.ready;
    x.clockMs = clock ? (clock.remaining.get(colour) ?? 0) : 0;
    x.standIn = link.presence !== 'connected' && (model.standIns?.has(colour) ?? false);
  }
}

function spectatorNames(match: Match): string[] {
  const roster = match.press.roster;
  return roster.spectatorIds().map((id) => roster.spectatorName(id));
}

/** Makes `list` hold `items`, writing only the entries that differ. */
function writeList(list: ArraySchema<string>, items: readonly string[]): void {
  for (let i = 0; i < items.length; i++) {
    if (i >= list.length) list.push(items[i]);
    else if (list[i] !== items[i]) list[i] = items[i];
  }
  while (list.length > items.length) list.pop();
}

/** A new position (or a new phase): its fields, controllers, players, eliminations and result. */
function writePosition(pos: Position, phase: Phase, state: DjambiState): void {
  state.toMove = phase === 'playing' ? (pos.toMove ?? '') : '';
  state.turnKind = pos.turnKind;
  state.ply = pos.ply;
  state.quiet = pos.quiet;
  state.ruler = ruler(pos) ?? '';
  // The board's armies: the square board's four, a hex board's three or six.
  for (const colour of COLOURS.slice(0, geometryOf(pos).seats)) {
    const controller = controllerOf(pos, colour) ?? '';
    if (state.control.get(colour) !== controller) state.control.set(colour, controller);
  }
  writeList(
    state.active,
    COLOURS.filter((_, c) => ((pos.activeMask >> c) & 1) === 1),
  );
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

function writeClock(match: Match, state: DjambiState): void {
  const c = match.clock;
  state.clock.enabled = c !== null;
  state.clock.running = c?.running ?? '';
  state.clock.turnStartedAt = c?.running ? c.startedAt : 0;
}

function writeOffer(match: Match, state: DjambiState): void {
  const offer = match.press.draws.current();
  state.drawOffer.id = offer?.id ?? 0;
  state.drawOffer.by = offer?.by ?? '';
  state.drawOffer.accepted = offer ? COLOURS.filter((c) => offer.accepted.includes(c)).join('') : '';
}
