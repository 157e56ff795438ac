/**
 * Army colours in seat order (RULES.md, HEX.md §4.2; docs/NOTATION.md): red, blue,
 * yellow, green, then purple and white, the fifth and sixth seats of the large hex board. The
 * square board seats the first four, the small hex board the first three; `seatsOf(rules)` gives
 * a game's seats.
 */
export const COLOURS = ['R', 'B', 'Y', 'G', 'P', 'W'] as const;
/** An army colour; also names the player who sits in that seat. */
export type Colour = (typeof COLOURS)[number];
/** Each colour's English name, as the server's own texts write it (the client has its own, in six languages). */
export const COLOUR_NAMES: { readonly [C in Colour]: string } = { R: 'Red', B: 'Blue', Y: 'Yellow', G: 'Green', P: 'Purple', W: 'White' };
/** Every army colour (the same list as `COLOURS`). */
export const ALL_COLOURS = COLOURS;
/** An army colour on any board (the same type as `Colour`). */
export type AnyColour = Colour;

/** Piece kinds (RULES.md ). */
export const KINDS = ['chief', 'assassin', 'reporter', 'diplomat', 'necromobile', 'militant'] as const;
/** A kind of piece. */
export type Kind = (typeof KINDS)[number];

/** Files a..i, left to right as seen from the Red/Blue edge. */
export const FILES = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'] as const;
/** A file letter `a`..`i`. */
export type File = (typeof FILES)[number];
/** Ranks 1..9 as they are written in square names, from the Red/Blue edge. */
export const RANKS = ['1', '2', '3', '4', '5', '6', '7', '8', '9'] as const;
/** A rank digit `1`..`9`. */
export type Rank = (typeof RANKS)[number];
/** A square name `a1`..`i9` (chessops's `SquareName`), as `makeSquare` writes it. */
export type SquareName = `${File}${Rank}`;
/**
 * A square as the engine counts it (chessops's `Square`): the index 0..80, `(rank - 1) * 9 +
 * file`, so `a1` is 0, `i1` is 8 and `i9` is 80. `parseSquare` reads a name into one.
 */
export type Square = number;
/** The maze (RULES.md ). */
export const MAZE: SquareName = 'e5';
/** Index of the maze. */
export const MAZE_SQ: Square = 40;

/** Records keyed by colour. */
export type ByColour<T> = { [C in Colour]: T };

/** Who moves an army: an active player, nobody (frozen, R-9.5) or nobody ever (hostage, §11). */
export type Controller = Colour | 'frozen' | 'hostage';

/**
 * The accepted values of each enumerated rule option, in the order a form offers them
 * (RULES.md, table at the top). `no_progress_rounds` is a number range, not listed here.
 */
export const RULE_VALUES = {
  players: [2, 3, 4],
  layout: ['mirror', 'chhobu_rotational'],
  reporter: ['optional_single', 'mandatory_single', 'all_adjacent'],
  self_kill: [false, true],
  maze_exit_order: ['act_exit_place', 'act_place_exit'],
  encirclement: ['group', 'literal_ring', 'throne_access'],
  neutral_pieces_untouchable: [true, false],
  encircled_chief: ['dies'],
  power_transfer_of_neutral_armies: ['permanent'],
  master_moves: [false],
} as const;
/** A rule option with an enumerated set of values (every option but `no_progress_rounds`). */
export type RuleChoiceKey = keyof typeof RULE_VALUES;
/** The enumerated rule options, each typed by its `RULE_VALUES` entry. */
export type RuleChoices = { -readonly [K in RuleChoiceKey]: (typeof RULE_VALUES)[K][number] };

/**
 * The games a board plays (the `board` rule option, shared/variants/HEX.md): the square game,
 * `hex3` (3 players, small hex board), `hex5` and `hex6` (5 and 6 players, large hex board; in
 * `hex5` one seat's army stays on the board as a hostage, SX-13).
 */
export const BOARDS = ['square', 'hex3', 'hex5', 'hex6'] as const;
/** A value of the `board` rule option. */
export type Board = (typeof BOARDS)[number];

/**
 * The rule options of the hex games (HEX.md), apart from `RULE_VALUES` because the create form
 * and the computer players read that table and play the square board only until the server and
 * the client seat hex games. `vertex_step` is SX-4 (may a step along a corner line pass between
 * two occupied flanking cells? `free`: yes, reading (a), the default; `both_flanks_block`: not
 * when both hold a piece, (b); `either_flank_blocks`: not when one does, (c)), an option of the
 * large board. `hostage_seat` is SX-13, the `hex5` seat (1..6, counter-clockwise from W) whose army
 * stays as a hostage; seat 6 by default.
 */
export const BOARD_RULE_VALUES = {
  board: BOARDS,
  vertex_step: ['free', 'both_flanks_block', 'either_flank_blocks'],
  hostage_seat: [1, 2, 3, 4, 5, 6],
} as const;
/** SX-4's default: reading (a), a step along a corner line is never blocked by its flanking cells. */
export const DEFAULT_VERTEX_STEP = 'free';
/** SX-13's default: the sixth seat's army (W, the NW corner) is `hex5`'s hostage. */
export const DEFAULT_HOSTAGE_SEAT = 6;
/** A value of the `vertex_step` rule option (SX-4). */
export type VertexStep = (typeof BOARD_RULE_VALUES.vertex_step)[number];

/** Player counts: the square board's 2, 3 and 4 (`RULE_VALUES.players`), `hex5`'s 5 and `hex6`'s 6. */
export type PlayerCount = RuleChoices['players'] | 5 | 6;

/**
 * Room rule options: the "constitution" of a game (RULES.md, table at the top; HEX.md for the
 * hex games). A square game's rules carry none of the hex options (`parseRules` leaves them
 * out, so its rules, records and stored configs read as before they existed); a hex game's carry
 * `board` and those of its options that apply to its board.
 */
export interface Rules extends Omit<RuleChoices, 'players'> {
  /** Players: 2, 3 or 4 on the square board; the board's own count on a hex board (3, 5, 6). */
  players: PlayerCount;
  /** Quiet rounds before an automatic draw (N-6); 0 turns it off. */
  no_progress_rounds: number;
  /** The board; absent for the square board. */
  board?: Board;
  /** SX-4 on the large hex board (`hex6`, `hex5`); absent elsewhere, where no step passes a corner. */
  vertex_step?: VertexStep;
  /** SX-13: the seat of `hex5`'s hostage army; absent on the other boards. */
  hostage_seat?: (typeof BOARD_RULE_VALUES.hostage_seat)[number];
}

/** The standard game. */
export const DEFAULT_RULES: Readonly<Rules> = Object.freeze({
  players: 4,
  layout: 'mirror',
  reporter: 'optional_single',
  self_kill: false,
  maze_exit_order: 'act_exit_place',
  encirclement: 'group',
  neutral_pieces_untouchable: true,
  encircled_chief: 'dies',
  power_transfer_of_neutral_armies: 'permanent',
  master_moves: false,
  no_progress_rounds: 50,
});

/** One piece as seen from outside the engine. `id` is stable for the whole game. */
export interface PieceInfo {
  readonly id: number;
  readonly colour: Colour;
  readonly kind: Kind;
  readonly square: SquareName;
  readonly alive: boolean;
}

/** `normal` seat turn or the ruler's `extra` turn (N-2; a merged turn is normal). */
export type TurnKind = 'normal' | 'extra';

/** Why a game ended in a draw. */
export type DrawReason = 'no_legal_move' | 'agreement' | 'no_progress' | 'mutual_elimination';

/** How a player left the game. */
export type EliminationCause = 'killed' | 'encircled' | 'resigned';

/** An elimination, in game order; `ply` counts turns from 0 (the turn during which it happened). */
export interface Elimination {
  readonly colour: Colour;
  readonly cause: EliminationCause;
  readonly by: Colour | null;
  readonly ply: number;
  /** Eliminations made by the same turn or resignation share a group (and a rank). */
  readonly group: number;
}

/** The end of a game. `ranking` lists groups of players, best first (shared ranks share a group). */
export type GameResult =
  | { readonly kind: 'win'; readonly winner: Colour; readonly ranking: readonly (readonly Colour[])[] }
  | { readonly kind: 'draw'; readonly reason: DrawReason; readonly ranking: readonly (readonly Colour[])[] };

/**
 * A complete turn: the piece moved, its destination and the choices the move needs
 * (`placement` of the killed or displaced piece, `exit` from the maze or, on the large hex board,
 * from the fortress (HEX.md SX-9), the reporter's victim).
 * `{ pass: true }` is the automatic pass of a player with no legal move. The engine's turns
 * name real squares (`SquareName`); `Turn<string>` (`TurnInput`) is one not checked yet.
 */
export type Turn<S extends string = SquareName> = MoveTurn<S> | PassTurn;
/** A turn that moves a piece. */
export interface MoveTurn<S extends string = SquareName> {
  readonly from: S;
  readonly to: S;
  readonly placement?: S;
  readonly exit?: S;
  readonly reporterTarget?: S;
}
/** The automatic pass. */
export interface PassTurn {
  readonly pass: true;
}
/** A turn from outside the engine (a client's payload, typed text): squares not checked yet; `playTurn` checks them. */
export type TurnInput = Turn<string>;

/** A turn being built by a user, step by step (any field may be missing). */
export interface PartialTurn<S extends string = SquareName> {
  readonly from?: S;
  readonly to?: S;
  readonly placement?: S;
  readonly exit?: S;
  /** `null` means "no kill" was chosen explicitly. */
  readonly reporterTarget?: S | null;
}

/** What a partial turn needs next, with its exact legal options. */
export type Choice =
  | { readonly kind: 'piece'; readonly options: readonly SquareName[] }
  | { readonly kind: 'destination'; readonly options: readonly SquareName[] }
  | { readonly kind: 'placement'; readonly options: readonly SquareName[] }
  | { readonly kind: 'exit'; readonly options: readonly SquareName[] }
  /** `required`: a victim must be named (mandatory_single); otherwise "no kill" is allowed. */
  | { readonly kind: 'reporter'; readonly options: readonly SquareName[]; readonly required: boolean }
  | { readonly kind: 'complete'; readonly turn: Turn };

/** Typed engine error codes. The engine never throws on bad input. */
export type TurnErrorCode =
  | 'game_over'
  | 'bad_turn'
  | 'bad_square'
  | 'not_your_piece'
  | 'illegal_destination'
  | 'missing_choice'
  | 'illegal_placement'
  | 'illegal_exit'
  | 'illegal_reporter_target'
  | 'unexpected_choice'
  | 'must_pass'
  | 'cannot_pass'
  | 'not_active';

/** An engine error: a code plus a human-readable message. */
export interface EngineError<C extends string = string> {
  readonly code: C;
  readonly message: string;
}

/** Result of an operation that can fail without throwing. */
export type Result<T, E = EngineError> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: E };

/** What a turn did, in order, for animation, logs and pact checks. */
export type Effect =
  | { readonly type: 'move'; readonly piece: number; readonly from: SquareName; readonly to: SquareName }
  | { readonly type: 'kill'; readonly piece: number; readonly by: number; readonly square: SquareName }
  | { readonly type: 'displace'; readonly piece: number; readonly by: number; readonly from: SquareName; readonly to: SquareName }
  | { readonly type: 'place'; readonly piece: number; readonly from: SquareName; readonly to: SquareName }
  | { readonly type: 'exit'; readonly piece: number; readonly from: SquareName; readonly to: SquareName }
  | { readonly type: 'control'; readonly army: Colour; readonly from: Controller; readonly to: Controller }
  | { readonly type: 'eliminated'; readonly colour: Colour; readonly cause: EliminationCause; readonly by: Colour | null }
  | { readonly type: 'pass'; readonly colour: Colour }
  | { readonly type: 'resign'; readonly colour: Colour }
  | { readonly type: 'result'; readonly result: GameResult };
