/**
 * The create form's rule options as `POST /api/rooms` takes them: the board's own player count
 * and options only (shared `BOARD_GAMES`), so that the form never sends a combination
 * `parseRules` refuses (a layout, `vertex_step` or `hostage_seat` on a board without it).
 */
import { BOARD_GAMES, type Board, BOARD_RULE_VALUES, type Rules } from '@djambi/shared';

/** What the form holds: the board, the square board's player count, every other field as text. */
export interface CreateFormValues {
  readonly board: Board;
  /** The chosen player count; a hex board plays its own whatever this says. */
  readonly players: number;
  /** The enumerated options by key (`layout`, `reporter`, …, `vertex_step`, `hostage_seat`), as the controls' text. */
  readonly choices: Readonly<Record<string, string>>;
  readonly noProgressRounds: number;
}

/** Does the board play more than one start layout, so that the form offers the choice? (The hex boards have one each, HEX.md §3.2, §4.2.) */
export const hasLayoutChoice = (board: Board): boolean => board === 'square';

/** The rule options of the form: the square game's as before the hex boards, a hex game's with `board` and its options. */
export function makeCreateRules(form: CreateFormValues): Partial<Rules> {
  const game = BOARD_GAMES[form.board];
  const players = game.players.includes(form.players as Rules['players']) ? form.players : game.players[0];
  const rules: Record<string, unknown> = form.board === 'square' ? { players } : { board: form.board, players };
  for (const [key, raw] of Object.entries(form.choices)) {
    if (key === 'vertex_step' || key === 'hostage_seat') {
      if (!game.options.includes(key)) continue;
      const value = key === 'hostage_seat' ? Number(raw) : raw;
      if ((BOARD_RULE_VALUES[key] as readonly unknown[]).includes(value)) rules[key] = value;
      continue;
    }
    if (key === 'layout' && !hasLayoutChoice(form.board)) continue;
    rules[key] = raw === 'true' ? true : raw === 'false' ? false : raw;
  }
  rules.no_progress_rounds = form.noProgressRounds;
  return rules as Partial<Rules>;
}
