/** Army colours in seat order (RULES.md ). */
export const COLOURS = ['R', 'B', 'Y', 'G'] as const;
/** An army colour; also names the player who sits in that seat. */
export type Colour = (typeof COLOURS)[number];

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

/** Room rule options: the "constitution" of a game (RULES.md, table at the top). */
export interface Rules extends RuleChoices {
  /** Quiet rounds before an automatic draw (N-6); 0 turns it off. */
  no_progress_rounds: number;
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
 * (`placement` of the killed or displaced piece, `exit` from the maze, the reporter's victim).
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
