/** Home page: create a game, join one by code, list the public games. */
import {
  BOARD_GAMES,
  BOARD_RULE_VALUES,
  type Board,
  BOARDS,
  CLOCK_PRESETS,
  type ClockPreset,
  COLOURS,
  DEFAULT_HOSTAGE_SEAT,
  DEFAULT_RULES,
  MAX_NO_PROGRESS_ROUNDS,
  normaliseCode,
  RULE_VALUES,
  type RuleChoiceKey,
  type Rules,
  seatsOf,
} from '@djambi/shared';
import { languageSelect } from '../i18n/languageSelect.js';
import { P, S } from '../i18n/strings.js';
import { createRoom, type GameListItem, listGames, listRooms, recentGames, type RoomInfo } from '../net/api.js';
import { saveHostToken, seatCodes } from '../net/seatStore.js';
import { botSeatsField, playComputerCard } from './botsForm.js';
import { hasLayoutChoice, makeCreateRules } from './createRules.js';
import { h, link, navigate, replace } from './dom.js';

/** The rule options the create form offers (their values come from the engine's `RULE_VALUES`). */
const RULE_KEYS = [
  'layout',
  'reporter',
  'self_kill',
  'maze_exit_order',
  'encirclement',
  'neutral_pieces_untouchable',
] as const satisfies readonly RuleChoiceKey[];
const RULE_CHOICES = RULE_KEYS.map((key) => ({ key, values: RULE_VALUES[key] }));
/** The create form's named fields that `makeCreateRules` reads apart, or not at all. */
const FORM_ONLY: ReadonlySet<string> = new Set(['board', 'players', 'visibility', 'no_progress_rounds']);

/** Normalise typed text into a room code, or null. */
export function parseCode(text: string): string | null {
  const m = /\/g\/([A-Za-z0-9]+)/.exec(text);
  return normaliseCode(m ? m[1] : text);
}

/** Render the home page; returns its cleanup. */
export function renderHome(root: HTMLElement): () => void {
  const abort = new AbortController();
  const optionLabels = P.ruleOptions as unknown as Record<string, Record<string, string>>;

  // ---- create
  const B = P.boards;
  const boardChoice = h(
    'fieldset',
    { class: 'choices', id: 'board-choice' },
    h('legend', {}, B.label),
    ...BOARDS.map((b) =>
      h(
        'label',
        {},
        h('input', { type: 'radio', name: 'board', value: b, checked: b === 'square' }),
        ' ',
        B[b],
        h('small', { class: 'muted' }, ` — ${B.hints[b]}`),
      ),
    ),
  );
  const players = h('fieldset', { class: 'choices', id: 'players-choice' }, h('legend', {}, P.home.players));
  /** A select of the board-only options, with its hint (`vertex_step`, `hostage_seat`). */
  const boardSelect = (key: 'vertex_step' | 'hostage_seat', labels: Record<string, string>, label: string, hint: string, selected: string): HTMLElement =>
    h(
      'div',
      { class: 'field', id: `field-${key}` },
      h('label', { for: `rule-${key}` }, label),
      h(
        'select',
        { name: key, id: `rule-${key}` },
        ...BOARD_RULE_VALUES[key].map((v) => h('option', { value: String(v), selected: String(v) === selected }, labels[String(v)])),
      ),
      h('small', {}, hint),
    );
  const vertexField = boardSelect('vertex_step', B.vertexStep, B.vertexStep.label, B.vertexStep.hint, 'free');
  const hostageField = boardSelect(
    'hostage_seat',
    Object.fromEntries(BOARD_RULE_VALUES.hostage_seat.map((n) => [String(n), B.hostageSeat.seat(n, S.colour(COLOURS[n - 1]))])),
    B.hostageSeat.label,
    B.hostageSeat.hint,
    String(DEFAULT_HOSTAGE_SEAT),
  );
  const ruleFields = RULE_CHOICES.map((choice) => {
    const labels = optionLabels[choice.key];
    const select = h(
      'select',
      { name: choice.key, id: `rule-${choice.key}` },
      ...(choice.values as readonly (string | boolean)[]).map((v) =>
        h('option', { value: String(v), selected: v === DEFAULT_RULES[choice.key] }, labels[String(v)]),
      ),
    );
    return h('div', { class: 'field' }, h('label', { for: `rule-${choice.key}` }, labels.label), select);
  });
  const quiet = h('input', {
    type: 'number',
    id: 'rule-quiet',
    name: 'no_progress_rounds',
    min: 0,
    max: MAX_NO_PROGRESS_ROUNDS,
    value: DEFAULT_RULES.no_progress_rounds,
  });
  ruleFields.push(
    h(
      'div',
      { class: 'field' },
      h('label', { for: 'rule-quiet' }, P.ruleOptions.no_progress_rounds.label),
      quiet,
      h('small', {}, P.ruleOptions.no_progress_rounds.hint),
    ),
  );
  const clockOn = h('input', { type: 'checkbox', id: 'clock-on' });
  // The server's bounds: 7 days in all, 1 day per turn at most (docs/PROTOCOL.md, "Limits").
  const minutes = h('input', { type: 'number', id: 'clock-min', min: 1, max: 7 * 24 * 60, value: 15, disabled: true });
  const increment = h('input', { type: 'number', id: 'clock-inc', min: 0, max: 24 * 3600, value: 10, disabled: true });
  clockOn.addEventListener('change', () => {
    minutes.disabled = !clockOn.checked;
    increment.disabled = !clockOn.checked;
  });
  const presets = (Object.keys(CLOCK_PRESETS) as ClockPreset[]).map((name) =>
    h(
      'button',
      {
        type: 'button',
        class: 'small preset',
        'data-preset': name,
        title: P.home.clockPresetHint(name),
        onclick: () => {
          const p = CLOCK_PRESETS[name];
          clockOn.checked = true;
          minutes.disabled = increment.disabled = false;
          minutes.value = String(p.initialSeconds / 60);
          increment.value = String(p.incrementSeconds);
        },
      },
      P.home.clockPreset(name),
    ),
  );
  const visibility = h(
    'fieldset',
    { class: 'choices' },
    h('legend', {}, P.home.visibility),
    h('label', {}, h('input', { type: 'radio', name: 'visibility', value: 'private', checked: true }), ' ', P.home.private),
    h('label', {}, h('input', { type: 'radio', name: 'visibility', value: 'public' }), ' ', P.home.public),
  );
  const pressExistence = h('input', { type: 'checkbox', id: 'press-existence' });
  const pressReveal = h('input', { type: 'checkbox', id: 'press-reveal', checked: true });
  const talk = h(
    'fieldset',
    { class: 'choices' },
    h('legend', {}, P.home.talk),
    h('label', {}, pressExistence, ' ', P.home.pressExistence),
    h('label', {}, pressReveal, ' ', P.home.pressReveal),
  );
  const botSeats = botSeatsField();
  const layoutField = ruleFields[RULE_KEYS.indexOf('layout')];
  /** The chosen board. */
  const board = (): Board => (new FormData(form).get('board') as Board | null) ?? 'square';
  /** Show the player counts, options and bot seats of the chosen board (and disable the others: FormData skips them). */
  const showBoard = (): void => {
    const b = board();
    const counts = BOARD_GAMES[b].players;
    const current = Number(new FormData(form).get('players'));
    const checked = counts.includes(current as Rules['players']) ? current : b === 'square' ? DEFAULT_RULES.players : counts[0];
    replace(
      players,
      h('legend', {}, P.home.players),
      ...counts.map((n) =>
        h(
          'label',
          {},
          h('input', { type: 'radio', name: 'players', value: n, checked: n === checked }),
          ' ',
          b === 'square' ? P.home.playersOption(n) : B.playersOption(n),
        ),
      ),
    );
    const shown: [HTMLElement, boolean][] = [
      [layoutField, hasLayoutChoice(b)],
      [vertexField, BOARD_GAMES[b].options.includes('vertex_step')],
      [hostageField, BOARD_GAMES[b].options.includes('hostage_seat')],
    ];
    for (const [field, on] of shown) {
      field.hidden = !on;
      const select = field.querySelector('select');
      if (select) select.disabled = !on;
    }
    const hostage = Number(new FormData(form).get('hostage_seat') ?? DEFAULT_HOSTAGE_SEAT);
    botSeats.show(seatsOf({ board: b, players: checked as Rules['players'], hostage_seat: hostage as Rules['hostage_seat'] }));
  };
  const createError = h('p', { class: 'error', role: 'alert' });
  const createButton = h('button', { type: 'submit', class: 'primary', id: 'create' }, P.home.create);
  const form = h(
    'form',
    { class: 'card', id: 'create-form' },
    h('h2', {}, P.home.createTitle),
    boardChoice,
    players,
    vertexField,
    hostageField,
    h('details', {}, h('summary', {}, P.home.rulesTitle), h('p', { class: 'hint' }, P.home.rulesHint), ...ruleFields),
    h(
      'fieldset',
      { class: 'choices' },
      h('legend', {}, P.home.clock),
      h('label', {}, clockOn, ' ', P.home.clockOn),
      h('div', { class: 'row presets', role: 'group', 'aria-label': P.home.clockPresets }, ...presets),
      h(
        'div',
        { class: 'row' },
        h('label', { for: 'clock-min' }, P.home.clockMinutes),
        minutes,
        h('label', { for: 'clock-inc' }, P.home.clockIncrement),
        increment,
      ),
    ),
    visibility,
    talk,
    botSeats.element,
    createButton,
    createError,
  );
  form.addEventListener('change', (e) => {
    const name = (e.target as HTMLInputElement).name;
    if (name === 'board' || name === 'players' || name === 'hostage_seat') showBoard();
  });
  showBoard();
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const data = new FormData(form);
    const choices: Record<string, string> = {};
    data.forEach((value, key) => {
      if (!FORM_ONLY.has(key)) choices[key] = String(value);
    });
    const rules = makeCreateRules({
      board: board(),
      players: Number(data.get('players') ?? DEFAULT_RULES.players),
      choices,
      noProgressRounds: Math.max(0, Math.min(MAX_NO_PROGRESS_ROUNDS, Math.round(Number(quiet.value) || 0))),
    });
    const clock = clockOn.checked
      ? { initialSeconds: Math.max(1, Number(minutes.value) || 15) * 60, incrementSeconds: Math.max(0, Number(increment.value) || 0) }
      : null;
    createButton.disabled = true;
    createButton.textContent = P.home.creating;
    createError.textContent = '';
    createRoom({
      rules,
      clock,
      visibility: data.get('visibility') === 'public' ? 'public' : 'private',
      press_visibility: pressExistence.checked ? 'existence' : 'hidden',
      reveal_press_after_game: pressReveal.checked,
      // Six colours on the hex boards: the protocol's `Colour` names four until it is widened (issue 39).
      bots: botSeats.value(),
    })
      .then(({ code, hostToken }) => {
        if (hostToken) saveHostToken(code, hostToken);
        navigate(`/g/${code}`);
      })
      .catch((err: unknown) => {
        const code = (err as { code?: unknown } | null)?.code;
        createError.textContent =
          code === 'too_many_rooms'
            ? P.home.createTooMany
            : code === 'server_full'
              ? P.home.createBusy
              : P.home.createFailed(err instanceof Error ? err.message : String(err));
        createButton.disabled = false;
        createButton.textContent = P.home.create;
      });
  });

  // ---- join by code
  const codeInput = h('input', {
    id: 'join-code',
    name: 'code',
    autocomplete: 'off',
    autocapitalize: 'characters',
    spellcheck: 'false',
    placeholder: P.home.joinPlaceholder,
    maxlength: 80,
  });
  const joinError = h('p', { class: 'error', role: 'alert' });
  const joinForm = h(
    'form',
    { class: 'card', id: 'join-form' },
    h('h2', {}, P.home.joinTitle),
    h('div', { class: 'row' }, h('label', { for: 'join-code' }, P.home.joinCode), codeInput, h('button', { type: 'submit' }, P.home.join)),
    joinError,
  );
  joinForm.addEventListener('submit', (e) => {
    e.preventDefault();
    const code = parseCode(codeInput.value);
    if (!code) {
      joinError.textContent = P.home.badCode;
      return;
    }
    navigate(`/g/${code}`);
  });

  // ---- public games
  const list = h('ul', { class: 'rooms', id: 'public-rooms', 'aria-live': 'polite' });
  const refresh = (): void => {
    listRooms(abort.signal)
      .then((rooms) => showRooms(list, rooms))
      .catch((err: unknown) => {
        if (!abort.signal.aborted) replace(list, h('li', { class: 'muted' }, P.home.publicFailed));
        void err;
      });
  };
  const publicCard = h(
    'section',
    { class: 'card' },
    h('div', { class: 'row spread' }, h('h2', {}, P.home.publicTitle), h('button', { type: 'button', onclick: refresh }, P.home.refresh)),
    list,
  );
  refresh();
  const timer = setInterval(refresh, 10000);

  // ---- your games (seat keys held here) and the recently finished public games
  const mine = h('ul', { class: 'rooms', id: 'your-games' });
  const codes = seatCodes();
  if (codes.length === 0) replace(mine, h('li', { class: 'muted' }, P.replay.yourGamesEmpty));
  else
    listGames(codes, abort.signal)
      .then((games) =>
        showGames(
          mine,
          [...games].sort((a, b) => b.createdAt - a.createdAt),
          'game',
          P.replay.yourGamesEmpty,
        ),
      )
      .catch(() => {
        if (!abort.signal.aborted) replace(mine, h('li', { class: 'muted' }, P.replay.yourGamesFailed));
      });
  const recent = h('ul', { class: 'rooms', id: 'recent-games' });
  recentGames(20, abort.signal)
    .then((games) => showGames(recent, games, 'replay', P.replay.recentEmpty))
    .catch(() => {
      if (!abort.signal.aborted) replace(recent, h('li', { class: 'muted' }, P.replay.recentFailed));
    });
  const mineCard = h('section', { class: 'card' }, h('h2', {}, P.replay.yourGames), mine);
  const recentCard = h('section', { class: 'card' }, h('h2', {}, P.replay.recentTitle), recent);

  replace(
    root,
    h(
      'header',
      { class: 'top' },
      h('h1', {}, S.appName),
      h('p', { class: 'tagline' }, S.tagline),
      h('nav', {}, link('/rules', S.nav.rules), link('/replay', P.replay.importNav), languageSelect()),
    ),
    h('main', { class: 'page home' }, form, h('div', { class: 'stack' }, playComputerCard(), joinForm, mineCard, publicCard, recentCard)),
  );
  return () => {
    abort.abort();
    clearInterval(timer);
  };
}

function showRooms(list: HTMLElement, rooms: readonly RoomInfo[]): void {
  const visible = rooms.filter((r) => r.phase !== 'over');
  if (visible.length === 0) {
    replace(list, h('li', { class: 'muted' }, P.home.publicEmpty));
    return;
  }
  replace(
    list,
    ...visible.map((r) => {
      const waiting = r.phase === 'waiting';
      const names = (r.seats ?? [])
        .filter((s) => s.name)
        .map((s) => s.name)
        .join(', ');
      const board = BOARDS.find((b) => b === r.rules?.board) ?? 'square';
      const colours = (r.seats ?? [])
        .map((s) => s.colour)
        .filter((c) => (COLOURS as readonly string[]).includes(c))
        .join('');
      return h(
        'li',
        {},
        h('span', { class: 'code' }, r.code),
        h('span', {}, board === 'square' ? P.home.playersOption(r.players) : P.boards[board]),
        h('span', { class: 'muted' }, waiting ? P.home.roomWaiting : P.home.roomPlaying),
        h('span', { class: 'muted', title: colours }, `${P.home.roomPlayers(r.seatsTaken, r.seats?.length ?? r.players)}${names ? ` · ${names}` : ''}`),
        link(`/g/${r.code}`, waiting && r.seatsTaken < (r.seats?.length ?? r.players) ? P.home.roomJoin : P.home.roomWatch, { class: 'button' }),
      );
    }),
  );
}

/** A result in a few words: the winner by name, its colour as a swatch. */
function resultText(g: GameListItem): string | (string | HTMLElement)[] {
  const r = g.summary?.result;
  if (!r) return g.status === 'finished' ? P.replay.finishedShort : P.replay.inProgressShort;
  if (r.kind === 'win' && r.winner && (COLOURS as readonly string[]).includes(r.winner)) {
    const c = r.winner as (typeof COLOURS)[number];
    return [h('span', { class: `swatch c-${c}`, 'aria-hidden': 'true' }), S.status.resultWin(g.summary?.players[c] || S.colour(c))];
  }
  if (r.kind === 'draw' && r.reason) return S.status.resultDraw(r.reason as Parameters<typeof S.status.resultDraw>[0]);
  return P.replay.finishedShort;
}

/** A list of stored games (newest first, as the server sends them), each linking to its page or replay. */
function showGames(list: HTMLElement, games: readonly GameListItem[], to: 'game' | 'replay', empty: string): void {
  if (games.length === 0) {
    replace(list, h('li', { class: 'muted' }, empty));
    return;
  }
  replace(
    list,
    ...games.map((g) => {
      const names = Object.values(g.summary?.players ?? {})
        .filter(Boolean)
        .join(', ');
      const path = to === 'replay' ? `/g/${g.code}/replay` : `/g/${g.code}`;
      return h(
        'li',
        { 'data-code': g.code, 'data-status': g.status },
        h('span', { class: 'code' }, g.code),
        h('span', { class: 'muted' }, resultText(g)),
        h('span', { class: 'muted' }, `${g.summary ? P.replay.moves(g.summary.moves) : ''}${names ? ` · ${names}` : ''}`),
        link(path, to === 'replay' ? P.replay.watchReplay : P.replay.openGame, { class: 'button' }),
      );
    }),
  );
}
