/**
 * Computer players on the home page: "Play against the computer" (one person and three bots of a
 * chosen level, started at once: the `autostart` create option, and the game page takes the
 * person's seat by itself, so one click starts the game), and the create form's choice
 * of a bot level for any seat (the `bots` create option). The server seats the bots.
 */
import { ALL_COLOURS, type AnyColour, BOT_LEVELS, type BotLevel } from '@djambi/shared';
import { P, S } from '../i18n/strings.js';
import { createRoom } from '../net/api.js';
import { saveHostToken } from '../net/seatStore.js';
import { h, navigate } from './dom.js';

function levelSelect(id: string, withPerson: boolean, selected: string): HTMLSelectElement {
  return h(
    'select',
    { id },
    ...(withPerson ? [h('option', { value: '', selected: selected === '' }, P.bots.person)] : []),
    ...BOT_LEVELS.map((level) => h('option', { value: level, selected: level === selected }, P.bots.levelName(level))),
  );
}

/** The "Play against the computer" card: a level and one button. */
export function playComputerCard(): HTMLElement {
  const level = levelSelect('bot-level', false, 'normal');
  const error = h('p', { class: 'error', role: 'alert' });
  const button = h('button', { type: 'button', class: 'primary', id: 'play-computer' }, P.bots.play);
  button.addEventListener('click', () => {
    const chosen = level.value as BotLevel;
    button.disabled = true;
    button.textContent = P.bots.starting;
    error.textContent = '';
    createRoom({ bots: { B: chosen, Y: chosen, G: chosen }, autostart: true })
      .then(({ code, hostToken }) => {
        // The game page takes the host's seat by itself: the bots' game starts at once (autostart).
        if (hostToken) saveHostToken(code, hostToken, true);
        navigate(`/g/${code}`);
      })
      .catch((err: unknown) => {
        error.textContent = P.bots.failed(err instanceof Error ? err.message : String(err));
        button.disabled = false;
        button.textContent = P.bots.play;
      });
  });
  return h(
    'section',
    { class: 'card', id: 'play-computer-card' },
    h('h2', {}, P.bots.playTitle),
    h('p', { class: 'hint' }, P.bots.playHint),
    h('div', { class: 'row' }, h('label', { for: 'bot-level' }, P.bots.level), level, button),
    error,
  );
}

/**
 * The create form's bot seats: a person or a bot level per seat colour, the seats of the chosen
 * game only (`show`, with shared `seatsOf(rules)`: up to six colours on the hex boards).
 */
export function botSeatsField(): {
  readonly element: HTMLElement;
  show(seats: readonly AnyColour[]): void;
  value(): Partial<Record<AnyColour, BotLevel>>;
} {
  const selects = ALL_COLOURS.map((colour) => {
    const select = levelSelect(`bot-seat-${colour}`, true, '');
    return { colour, select, field: h('div', { class: 'field' }, h('label', { for: select.id }, P.bots.seatLabel(S.colour(colour))), select) };
  });
  const element = h(
    'details',
    { id: 'bot-seats' },
    h('summary', {}, P.bots.seatsTitle),
    h('p', { class: 'hint' }, P.bots.seatsHint),
    ...selects.map((s) => s.field),
  );
  return {
    element,
    show(seats) {
      for (const { colour, field } of selects) field.hidden = !seats.includes(colour);
    },
    value() {
      const out: Partial<Record<AnyColour, BotLevel>> = {};
      for (const { colour, select, field } of selects) if (select.value && !field.hidden) out[colour] = select.value as BotLevel;
      return out;
    },
  };
}
