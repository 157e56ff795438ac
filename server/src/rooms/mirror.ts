/**
 * `mirror` is the only writer of the room schema: it copies the room model (seats, game,
 * clocks, the press's public draw offer) into the synced state. Nothing else of the press (no
 * channel, message, pact or count) is ever written here.
 *
 * It writes only what changed since the last call on the same state: what it last wrote is
 * remembered beside the state (`Written`), the room's settings are written once, the position
 * only when it is a new one (positions are immutable), and a seat, the clock or the draw offer
 * only where a value differs (each compared against `Written`, never through the schema's
 * setters, which cost a megamorphic load and a generic comparison even for an equal value). A
 * commit after a turn therefore touches the position fields that changed, the move list and the
 * version, allocates little, and reads no schema collection through its proxy (slow): the move
 * list is appended to on the array itself (`append`), declared append-only (`appendOnly`,
 * internals.ts), which holds its items once and no record of every change.
 */
import type { ArraySchema, ChangeTree } from '@colyseus/schema';
import { COLOURS, type Colour, controllerOf, type Position, ruler } from '@djambi/shared';
import type { Match, Phase } from '../match/match.js';
import type { Connections } from './connections.js';
import { append, appendOnly, changedIn, primitiveField, treeOf } from './internals.js';
import { DjambiState, EliminationState, SeatState } from './schema.js';

export type { Phase } from '../match/match.js';

/** Everything `mirror` reads: the match, the seats' connections, and what only the room knows. */
export interface RoomModel {
  readonly code: string;
  readonly match: Match;
  readonly links: Connections;
  readonly spectators: number;
  /**
   * Seats a bot has played for while their player was away (shown while the player still is),
   * with the count of their changes that lets `mirror` skip the seats when nothing changed.
   */
  readonly standIns?: Pick<CountedSet<Colour>, 'has' | 'version'>;
}

/** A set that counts its changes (`version`), so that a reader can tell it has not changed. */
export class CountedSet<T> extends Set<T> {
  version = 0;

  override add(value: T): this {
    if (!this.has(value)) this.version++;
    return super.add(value);
  }

  override delete(value: T): boolean {
    const gone = super.delete(value);
    if (gone) this.version++;
    return gone;
  }

  override clear(): void {
    if (this.size > 0) this.version++;
    super.clear();
  }
}

/** What a seat's schema last received. */
interface SeatWritten {
  readonly schema: SeatState;
  name: string;
  taken: boolean;
  presence: string;
  since: number;
  creator: boolean;
  active: boolean;
  swapWith: string;
  ready: boolean;
  clockMs: number;
  standIn: boolean;
}

/** What `mirror` last wrote into one state. */
interface Written {
  config: Match['config'] | null;
  code: string;
  phase: Phase | '';
  spectators: number;
  creator: string;
  host: string;
  /** `match.spectatorsVersion` the spectators' names were written for. */
  spectatorsVersion: number;
  seats: Map<Colour, SeatWritten>;
  /** What the seats were last written from (when none of it changed, `mirrorSeats` has nothing to do): the match, its `seatsVersion`, the links' and stand-ins' `version`, the active players. */
  seatsMatch: Match | null;
  seatsVersion: number;
  linksVersion: number;
  standInsVersion: number;
  seatsMask: number;
  position: Position | null;
  /** Phase the position fields were written for (`toMove` is '' outside play). */
  positionPhase: Phase | '';
  toMove: string;
  turnKind: string;
  ply: number;
  quiet: number;
  ruler: string;
  control: number[];
  activeMask: number;
  activeCount: number;
  eliminations: number;
  result: boolean;
  moves: number;
  /** `state.moves` itself, behind its proxy; written by `append` only (`appendOnly`). */
  movesList: ArraySchema<string>;
  /** The change trees of the state and of its move list (`treeOf`: found once, not at each write). */
  readonly tree: ChangeTree;
  readonly movesTree: ChangeTree;
  clock: { enabled: boolean; running: string; turnStartedAt: number };
  offer: { id: number; by: string; accepted: string };
}

/**
 * The root state's fields a turn writes, by number, and their own storage: they are written as
 * their setters would (`changed`, internals.ts), by named stores on one class of object.
 */
const FIELD = {
  toMove: primitiveField(DjambiState, 'toMove'),
  turnKind: primitiveField(DjambiState, 'turnKind'),
  ply: primitiveField(DjambiState, 'ply'),
  quiet: primitiveField(DjambiState, 'quiet'),
  ruler: primitiveField(DjambiState, 'ruler'),
  version: primitiveField(DjambiState, 'version'),
} as const;

/** Where a schema keeps each field's value (`_` and the field's name). */
interface TurnFields {
  _toMove: string;
  _turnKind: string;
  _ply: number;
  _quiet: number;
  _ruler: string;
  _version: number;
}

/**
 * What was written into each state, kept beside it for as long as the state lives (the schema
 * classes hold fields only; the room keeps one state for its whole life).
 */
const WRITTEN = new WeakMap<DjambiState, Written>();

function writtenOf(state: DjambiState): Written {
  let w = WRITTEN.get(state);
  if (!w) {
    const movesList = appendOnly(state.moves);
    w = {
      config: null,
      code: '',
      phase: '',
      spectators: -1,
      creator: '',
      host: '',
      spectatorsVersion: -1,
      seats: new Map(),
      seatsMatch: null,
      seatsVersion: -1,
      linksVersion: -1,
      standInsVersion: -1,
      seatsMask: -1,
      position: null,
      positionPhase: '',
      toMove: '',
      turnKind: 'normal',
      ply: 0,
      quiet: 0,
      ruler: '',
      control: [-2, -2, -2, -2],
      activeMask: -1,
      activeCount: 0,
      eliminations: 0,
      result: false,
      moves: 0,
      movesList,
      tree: treeOf(state),
      movesTree: treeOf(movesList),
      clock: { enabled: false, running: '', turnStartedAt: 0 },
      offer: { id: 0, by: '', accepted: '' },
    };
    WRITTEN.set(state, w);
  }
  return w;
}

/** Copies the model into `state`, writing only what changed since the last call. */
export function mirror(model: RoomModel, state: DjambiState): void {
  mirrorInto(model, state, writtenOf(state));
}

/** `mirror` into one state, with what was written there found once (the patcher's, `patcher.ts`). */
export function mirrorer(state: DjambiState): (model: RoomModel) => void {
  const w = writtenOf(state);
  return (model) => mirrorInto(model, state, w);
}

function mirrorInto(model: RoomModel, state: DjambiState, w: Written): void {
  const match = model.match;
  if (w.config !== match.config) {
    w.config = match.config;
    mirrorSettings(match, state);
  }
  if (w.code !== model.code) state.code = w.code = model.code;
  const phase = match.phase;
  if (w.phase !== phase) state.phase = w.phase = phase;
  if (w.spectators !== model.spectators) state.spectators = w.spectators = model.spectators;
  mirrorSeats(model, state, w);
  mirrorSpectators(match, state, w);
  if (w.position !== match.position || w.positionPhase !== phase) mirrorPosition(match.position, phase, state, w);
  mirrorMoves(match, state, w);
  mirrorClock(match, state, w);
  mirrorOffer(match, state, w);
}

/** The room's settings: they never change after the room is made. */
function mirrorSettings(match: Match, state: DjambiState): void {
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
  const clock = config.clock;
  state.clock.initialMs = clock?.initialMs ?? 0;
  state.clock.incrementMs = clock?.incrementMs ?? 0;
}

function mirrorSeats(model: RoomModel, state: DjambiState, w: Written): void {
  const match = model.match;
  // Before the start every seat shows as active.
  const activeMask = match.phase === 'waiting' ? 0xf : match.position.activeMask;
  // Most commits follow a turn, which changes none of this without a clock: the seats, their
  // links and the stand-ins are read (cold, on every seat) only when one of them changed.
  const standIns = model.standIns?.version ?? 0;
  if (
    match.clock === null &&
    w.seatsMatch === match &&
    w.seatsVersion === match.seatsVersion &&
    w.linksVersion === model.links.version &&
    w.standInsVersion === standIns &&
    w.seatsMask === activeMask
  ) {
    return;
  }
  w.seatsMatch = match;
  w.seatsVersion = match.seatsVersion;
  w.linksVersion = model.links.version;
  w.standInsVersion = standIns;
  w.seatsMask = activeMask;
  const creator = match.seats.creatorColour() ?? '';
  if (w.creator !== creator) state.creator = w.creator = creator;
  const host = match.seats.hostColour() ?? '';
  if (w.host !== host) state.host = w.host = host;
  const clock = match.clock;
  for (const seat of match.seats.seats.values()) {
    const colour = seat.colour;
    const link = model.links.of(colour);
    let s = w.seats.get(colour);
    if (!s) {
      const schema = new SeatState();
      schema.colour = colour;
      state.seats.set(colour, schema);
      s = { schema, name: '', taken: false, presence: 'empty', since: 0, creator: false, active: true, swapWith: '', ready: false, clockMs: 0, standIn: false };
      w.seats.set(colour, s);
    }
    const x = s.schema;
    if (s.name !== seat.name) x.name = s.name = seat.name;
    const taken = seat.keyHash !== null;
    if (s.taken !== taken) x.taken = s.taken = taken;
    if (s.presence !== link.presence) x.presence = s.presence = link.presence;
    if (s.since !== link.since) x.since = s.since = link.since;
    const isCreator = colour === creator;
    if (s.creator !== isCreator) x.creator = s.creator = isCreator;
    const active = ((activeMask >> COLOURS.indexOf(colour)) & 1) === 1;
    if (s.active !== active) x.active = s.active = active;
    const swapWith = seat.swapWith ?? '';
    if (s.swapWith !== swapWith) x.swapWith = s.swapWith = swapWith;
    if (s.ready !== seat.ready) x.ready = s.ready = seat.ready;
    const clockMs = clock ? (clock.remaining.get(colour) ?? 0) : 0;
    if (s.clockMs !== clockMs) x.clockMs = s.clockMs = clockMs;
    const standIn = link.presence !== 'connected' && (model.standIns?.has(colour) ?? false);
    if (s.standIn !== standIn) x.standIn = s.standIn = standIn;
  }
}

/** The spectators' names (rewritten whole when one comes, goes or renames: there are few). */
function mirrorSpectators(match: Match, state: DjambiState, w: Written): void {
  if (w.spectatorsVersion === match.spectatorsVersion) return;
  w.spectatorsVersion = match.spectatorsVersion;
  const roster = match.press.roster;
  const names = roster.spectatorIds().map((id) => roster.spectatorName(id));
  const list = state.spectatorNames;
  for (let i = 0; i < names.length; i++) {
    if (i < list.length) {
      if (list[i] !== names[i]) list[i] = names[i];
    } else list.push(names[i]);
  }
  while (list.length > names.length) list.pop();
}

/** A new position (or a new phase): its fields, and only the controllers, players and eliminations that changed. */
function mirrorPosition(pos: Position, phase: Phase, state: DjambiState, w: Written): void {
  w.position = pos;
  w.positionPhase = phase;
  // Compared here, not by the schema's setters: each setter call is a megamorphic load, a generic
  // comparison and a type check even when the value is the same (most turns keep `turnKind` and
  // `ruler`).
  const toMove = phase === 'playing' ? (pos.toMove ?? '') : '';
  const fields = state as unknown as TurnFields;
  if (w.toMove !== toMove) {
    fields._toMove = w.toMove = toMove;
    changedIn(w.tree, FIELD.toMove);
  }
  if (w.turnKind !== pos.turnKind) {
    fields._turnKind = w.turnKind = pos.turnKind;
    changedIn(w.tree, FIELD.turnKind);
  }
  if (w.ply !== pos.ply) {
    fields._ply = w.ply = pos.ply;
    changedIn(w.tree, FIELD.ply);
  }
  if (w.quiet !== pos.quiet) {
    fields._quiet = w.quiet = pos.quiet;
    changedIn(w.tree, FIELD.quiet);
  }
  const power = ruler(pos) ?? '';
  if (w.ruler !== power) {
    fields._ruler = w.ruler = power;
    changedIn(w.tree, FIELD.ruler);
  }
  for (let a = 0; a < COLOURS.length; a++) {
    if (w.control[a] === pos.control[a]) continue;
    w.control[a] = pos.control[a];
    state.control.set(COLOURS[a], controllerOf(pos, COLOURS[a]) ?? '');
  }
  if (w.activeMask !== pos.activeMask) {
    w.activeMask = pos.activeMask;
    w.activeCount = setActive(state.active, pos.activeMask, w.activeCount);
  }
  for (let i = w.eliminations; i < pos.eliminations.length; i++) {
    const e = pos.eliminations[i];
    const s = new EliminationState();
    s.colour = e.colour;
    s.cause = e.cause;
    s.by = e.by ?? '';
    s.ply = e.ply;
    state.eliminations.push(s);
  }
  w.eliminations = pos.eliminations.length;

  const result = pos.result;
  if (result && !w.result) {
    w.result = true;
    state.result.winner = result.kind === 'win' ? result.winner : '';
    state.result.reason = result.kind === 'draw' ? result.reason : '';
    for (const group of result.ranking) state.result.ranking.push(group.join(''));
    state.result.kind = result.kind;
  }
}

function mirrorMoves(match: Match, state: DjambiState, w: Written): void {
  const game = match.game;
  const n = game.length;
  if (w.moves === n) return;
  const list = w.movesList;
  for (let i = w.moves; i < n; i++) append(list, game.move(i), w.movesTree);
  w.moves = n;
  (state as unknown as TurnFields)._version = n;
  changedIn(w.tree, FIELD.version);
}

function mirrorClock(match: Match, state: DjambiState, w: Written): void {
  const c = match.clock;
  const enabled = c !== null;
  const running = c?.running ?? '';
  const startedAt = c?.running ? c.startedAt : 0;
  const was = w.clock;
  if (was.enabled !== enabled) state.clock.enabled = was.enabled = enabled;
  if (was.running !== running) state.clock.running = was.running = running;
  if (was.turnStartedAt !== startedAt) state.clock.turnStartedAt = was.turnStartedAt = startedAt;
}

function mirrorOffer(match: Match, state: DjambiState, w: Written): void {
  const offer = match.press.draws.current();
  const was = w.offer;
  if (!offer && was.id === 0 && was.by === '' && was.accepted === '') return;
  const id = offer?.id ?? 0;
  const by = offer?.by ?? '';
  const accepted = offer ? COLOURS.filter((c) => offer.accepted.includes(c)).join('') : '';
  if (was.id !== id) state.drawOffer.id = was.id = id;
  if (was.by !== by) state.drawOffer.by = was.by = by;
  if (was.accepted !== accepted) state.drawOffer.accepted = was.accepted = accepted;
}

/**
 * Makes `target` hold the colours of `mask` in seat order, with index writes and pops only (no
 * array surgery); `length` is what it held. Returns its new length.
 */
function setActive(target: ArraySchema<string>, mask: number, length: number): number {
  let n = 0;
  for (let c = 0; c < COLOURS.length; c++) {
    if (((mask >> c) & 1) === 0) continue;
    if (n < length) {
      if (target[n] !== COLOURS[c]) target[n] = COLOURS[c];
    } else target.push(COLOURS[c]);
    n++;
  }
  for (let i = n; i < length; i++) target.pop();
  return n;
}
