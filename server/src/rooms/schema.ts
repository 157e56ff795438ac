/**
 * The synced room state (@colyseus/schema 3). Fields only: no logic lives here.
 * `mirror.ts` is the only writer. See docs/PROTOCOL.md for the meaning of every field.
 */
import { ArraySchema, MapSchema, Schema, type } from '@colyseus/schema';

/** A seat that takes turns (square 4p R,B,Y,G; 3p R,B,Y; 2p R,Y; hex3 R,B,Y; hex6 R..W; hex5 five of R..W). */
export class SeatState extends Schema {
  @type('string') colour = '';
  @type('string') name = '';
  /** A participant holds the seat (connected or away). */
  @type('boolean') taken = false;
  /** `empty` | `connected` | `reconnecting` (grace period) | `away`. */
  @type('string') presence = 'empty';
  /** Server epoch milliseconds of the last presence change. */
  @type('float64') since = 0;
  /** The seat holder created the room (first seated participant). */
  @type('boolean') creator = false;
  /** Still in the game (not eliminated); true for every seat before the start. */
  @type('boolean') active = true;
  /** Remaining clock time in ms, as of `clock.turnStartedAt` when this seat's clock runs. */
  @type('float64') clockMs = 0;
  /** Before the start: the colour this seat asked to swap with ('' = none). */
  @type('string') swapWith = '';
  /** Before the start: the holder said it is ready to play (reset when the seat changes hands). */
  @type('boolean') ready = false;
  /** A bot plays this seat's turns while its player is away (stand-in, see table/bots.ts). */
  @type('boolean') standIn = false;
}

/** Room rule options (RULES.md, snake_case as there). */
export class RulesState extends Schema {
  @type('uint8') players = 4;
  @type('string') layout = '';
  @type('string') reporter = '';
  @type('boolean') self_kill = false;
  @type('string') maze_exit_order = '';
  @type('string') encirclement = '';
  @type('boolean') neutral_pieces_untouchable = true;
  @type('string') encircled_chief = '';
  @type('string') power_transfer_of_neutral_armies = '';
  @type('boolean') master_moves = false;
  @type('uint16') no_progress_rounds = 0;
  /** `hex3` | `hex5` | `hex6` ('' = the square board). */
  @type('string') board = '';
  /** HEX.md SX-4 on the large hex board ('' elsewhere). */
  @type('string') vertex_step = '';
  /** The seat (1..6) of `hex5`'s hostage army (0 elsewhere). */
  @type('uint8') hostage_seat = 0;
}

/** Per-player clock settings and the running clock. */
export class ClockState extends Schema {
  @type('boolean') enabled = false;
  @type('float64') initialMs = 0;
  @type('float64') incrementMs = 0;
  /** Colour whose clock is running ('' = none). */
  @type('string') running = '';
  /** Server epoch ms when the running clock started. */
  @type('float64') turnStartedAt = 0;
}

export class EliminationState extends Schema {
  @type('string') colour = '';
  @type('string') cause = '';
  @type('string') by = '';
  @type('uint16') ply = 0;
}

export class ResultState extends Schema {
  /** '' while the game goes on, then `win` | `draw`. */
  @type('string') kind = '';
  @type('string') winner = '';
  @type('string') reason = '';
  /** Groups of colours, best first; each group is a string such as "BY". */
  @type(['string']) ranking = new ArraySchema<string>();
}

export class DrawOfferState extends Schema {
  /** Id of the open offer (ids count from 1 per room; 0 = no offer open). */
  @type('uint32') id = 0;
  /** Who offered ('' = no offer open). */
  @type('string') by = '';
  /** Colours that have accepted so far, e.g. "RY". */
  @type('string') accepted = '';
}

export class DjambiState extends Schema {
  @type('string') code = '';
  /** `waiting` | `playing` | `over`. */
  @type('string') phase = 'waiting';
  /** `private` | `public`. */
  @type('string') visibility = 'private';
  /** Room option: `hidden` | `existence` (may non-members learn that a private channel exists). */
  @type('string') press_visibility = 'hidden';
  /** Room option: private, group and spectator conversations are shown to everyone after the game. */
  @type('boolean') reveal_press_after_game = true;
  @type(RulesState) rules = new RulesState();
  @type(ClockState) clock = new ClockState();
  @type({ map: SeatState }) seats = new MapSchema<SeatState>();
  /** Colour of the creator's seat ('' if the creator holds no seat). */
  @type('string') creator = '';
  @type('uint16') spectators = 0;

  /*
   * A summary of the position. The position itself is the move list's (`moves`, below): every
   * client replays it with the engine (`makeFen` then gives the FEN). There is no `fen` field:
   * rewritten whole after every turn, it was two thirds of each turn's patch.
   */
  @type('string') toMove = '';
  @type('string') turnKind = 'normal';
  @type('uint16') ply = 0;
  @type('uint16') quiet = 0;
  @type('string') ruler = '';
  /** army colour -> controller (`R`..`W`, `frozen`, `hostage`), for the board's armies. */
  @type({ map: 'string' }) control = new MapSchema<string>();
  /** Active players in seat order. */
  @type(['string']) active = new ArraySchema<string>();
  @type([EliminationState]) eliminations = new ArraySchema<EliminationState>();
  /**
   * The game: the move list, one string per accepted record event: `"<colour> <turn>"` (turn
   * notation of `makeTurn`, or `pass`), `"<colour> resign"`, `"<colour> timeout"`, or `"draw"`.
   * The one source of truth for the board: positions, pieces and animations are derived from it
   * with the engine.
   */
  @type(['string']) moves = new ArraySchema<string>();
  @type(ResultState) result = new ResultState();
  @type(DrawOfferState) drawOffer = new DrawOfferState();
  /** Number of accepted record events (= moves.length); a `turn` may carry it to detect staleness. */
  @type('uint32') version = 0;
  /** Colour of the host's seat (who may start and remove players); '' while the host holds no seat. */
  @type('string') host = '';
  /** Display names of the connected spectators, in the order they came. */
  @type(['string']) spectatorNames = new ArraySchema<string>();
}
