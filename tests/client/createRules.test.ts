/**
 * The create form's rule options (`makeCreateRules`): every board's request passes the engine's
 * `parseRules` with the board's player count, its own options only (no layout on a hex board,
 * `vertex_step` on the large board, `hostage_seat` in `hex5`), and a square game's request is
 * what the form sent before the hex boards.
 */
import { BOARD_GAMES, BOARDS, type Board, parseRules, seatsOf } from '@djambi/shared';
import { type CreateFormValues, makeCreateRules } from '../../client/src/ui/createRules.js';

/** Every control of the form as it can be left, whatever the board: a stale layout, hex options, a square player count. */
const EVERY_CHOICE: CreateFormValues['choices'] = {
  layout: 'chhobu_rotational',
  reporter: 'mandatory_single',
  self_kill: 'true',
  maze_exit_order: 'act_place_exit',
  encirclement: 'literal_ring',
  neutral_pieces_untouchable: 'false',
  vertex_step: 'both_flanks_block',
  hostage_seat: '2',
};

const form = (board: Board, choices: CreateFormValues['choices'] = EVERY_CHOICE, players = 2): CreateFormValues => ({
  board,
  players,
  choices,
  noProgressRounds: 30,
});

test.each([...BOARDS])('%s: the request passes parseRules with the board and its player count', (board) => {
  const rules = makeCreateRules(form(board));
  const parsed = parseRules(rules);
  expect(parsed).toMatchObject({ ok: true });
  if (!parsed.ok) return;
  const game = BOARD_GAMES[board];
  expect(game.players).toContain(parsed.value.players);
  expect(parsed.value.board).toBe(board === 'square' ? undefined : board);
  expect(parsed.value.reporter).toBe('mandatory_single');
  expect(parsed.value.self_kill).toBe(true);
  expect(parsed.value.no_progress_rounds).toBe(30);
});

test('hex6: board hex6, 6 players, vertex_step, no layout and no hostage_seat', () => {
  const rules = makeCreateRules(form('hex6'));
  expect(rules).toMatchObject({ board: 'hex6', players: 6, vertex_step: 'both_flanks_block' });
  expect(rules).not.toHaveProperty('layout');
  expect(rules).not.toHaveProperty('hostage_seat');
  expect(seatsOf(rules as Parameters<typeof seatsOf>[0])).toEqual(['R', 'B', 'Y', 'G', 'P', 'W']);
});

test('hex5: board hex5, 5 players, the hostage seat as a number, the seats without it', () => {
  const rules = makeCreateRules(form('hex5'));
  expect(rules).toMatchObject({ board: 'hex5', players: 5, vertex_step: 'both_flanks_block', hostage_seat: 2 });
  expect(rules).not.toHaveProperty('layout');
  expect(seatsOf(rules as Parameters<typeof seatsOf>[0])).toEqual(['R', 'Y', 'G', 'P', 'W']);
});

test('hex3: board hex3, 3 players, no layout and no large-board option', () => {
  const rules = makeCreateRules(form('hex3'));
  expect(rules).toMatchObject({ board: 'hex3', players: 3 });
  for (const key of ['layout', 'vertex_step', 'hostage_seat']) expect(rules).not.toHaveProperty(key);
});

test('square: the request of the form before the hex boards (no board key, the layout kept, no hex option)', () => {
  const { vertex_step, hostage_seat, ...squareChoices } = EVERY_CHOICE;
  void vertex_step;
  void hostage_seat;
  expect(makeCreateRules(form('square', squareChoices, 3))).toEqual({
    players: 3,
    layout: 'chhobu_rotational',
    reporter: 'mandatory_single',
    self_kill: true,
    maze_exit_order: 'act_place_exit',
    encirclement: 'literal_ring',
    neutral_pieces_untouchable: false,
    no_progress_rounds: 30,
  });
  // Hex options left in the form never reach a square game's request.
  expect(makeCreateRules(form('square'))).not.toHaveProperty('vertex_step');
  expect(makeCreateRules(form('square'))).not.toHaveProperty('hostage_seat');
});

test('a value the engine does not know is left out rather than sent', () => {
  const rules = makeCreateRules(form('hex5', { vertex_step: 'sideways', hostage_seat: '9' }));
  expect(rules).toEqual({ board: 'hex5', players: 5, no_progress_rounds: 30 });
  expect(parseRules(rules)).toMatchObject({ ok: true });
});
