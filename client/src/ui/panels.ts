/** The panels around the board: status, seats and the move list. Plain DOM from plain data. */
import { COLOURS, activePlayers, controllerOf, geometryOf, ruler, type Colour, type DrawReason, type EliminationCause, type Position } from '@djambi/shared';
import { hostageArmies } from '../game/seats.js';
import type { GameSnapshot, MoveRecord, SeatSnapshot } from '../game/snapshot.js';
import { displayName, S } from '../i18n/strings.js';
import { h, replace } from './dom.js';

/** A coloured dot for an army. */
export function swatch(c: Colour): HTMLElement {
  return h('span', { class: `swatch c-${c}`, 'aria-hidden': 'true' });
}

/** A seat's player: its name (a bot's too), else its colour; shown with its colour as a swatch. */
export function playerName(snap: GameSnapshot, c: Colour): string {
  const seat = snap.seats.find((s) => s.colour === c);
  return seat?.taken && seat.name ? seat.name : S.colour(c);
}

/** "3 s", "2 min", "1 h" since a server time. */
export function since(ms: number, now: number): string {
  const s = Math.max(0, Math.round((now - ms) / 1000));
  if (s < 60) return S.time.seconds(s);
  if (s < 3600) return S.time.minutes(Math.floor(s / 60));
  return S.time.hours(Math.floor(s / 3600));
}

/** m:ss (or h:mm:ss) of a clock. */
export function clockText(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hh = Math.floor(total / 3600);
  const mm = Math.floor((total % 3600) / 60);
  const ss = total % 60;
  const pad = (n: number): string => String(n).padStart(2, '0');
  return hh > 0 ? `${hh}:${pad(mm)}:${pad(ss)}` : `${mm}:${pad(ss)}`;
}

/** Remaining time of a seat's clock now. */
export function remaining(snap: GameSnapshot, seat: SeatSnapshot, now: number): number {
  if (snap.clock.enabled && snap.clock.running === seat.colour && snap.phase === 'playing') {
    return seat.clockMs - (now - snap.clock.turnStartedAt);
  }
  return seat.clockMs;
}

/** The status panel: whose turn, ruler, control of armies, eliminated players, clocks, result. */
export function renderStatus(
  el: HTMLElement,
  snap: GameSnapshot,
  pos: Position | null,
  mySeat: Colour | null,
  now: number,
  history: { index: number; total: number } | null,
  linkDown = false,
): void {
  const rows: HTMLElement[] = [];
  if (history) {
    rows.push(h('p', { class: 'history-note' }, S.status.viewingPast(history.index, history.total)));
  }
  if (snap.phase === 'waiting' || !pos) {
    rows.push(h('p', { class: 'turn' }, S.status.notStarted));
  } else if (!pos.result && pos.toMove && linkDown && !history) {
    // The link is down: whose turn it is now is not known here.
    rows.push(h('p', { class: 'turn reconnecting', id: 'turn-line' }, S.net.reconnectingNow));
  } else if (!pos.result && pos.toMove) {
    const mine = pos.toMove === mySeat && !history;
    rows.push(
      h(
        'p',
        { class: `turn${mine ? ' mine' : ''}`, id: 'turn-line' },
        swatch(pos.toMove),
        mine
          ? pos.turnKind === 'extra'
            ? S.status.yourTurnExtra
            : S.status.yourTurn
          : S.status.toMove(playerName(snap, pos.toMove), pos.turnKind === 'extra'),
      ),
    );
  }
  if (snap.result && !history) {
    const r = snap.result;
    rows.push(
      h(
        'p',
        { class: 'result', id: 'result' },
        r.kind === 'win' && r.winner
          ? [swatch(r.winner), S.status.resultWin(playerName(snap, r.winner))]
          : S.status.resultDraw((r.reason || 'agreement') as DrawReason),
      ),
    );
    if (r.ranking.length)
      rows.push(
        h(
          'p',
          { class: 'muted' },
          `${S.status.ranking}: ${r.ranking
            .map((g) =>
              g
                .split('')
                .map((c) => playerName(snap, c as Colour))
                .join(' = '),
            )
            .join(' › ')}`,
        ),
      );
  }
  if (pos) {
    const k = ruler(pos);
    rows.push(h('p', {}, h('strong', {}, `${S.status.ruler}: `), k ? [swatch(k), S.colour(k)] : S.status.noRuler));
    // The board's armies: four on the square board, three or six on a hex board.
    const armies = COLOURS.slice(0, geometryOf(pos).seats).map((army) => {
      const c = controllerOf(pos, army);
      const text =
        c === null ? S.status.gone(army) : c === 'frozen' ? S.status.frozen(army) : c === 'hostage' ? S.status.hostage(army) : S.status.controlledBy(army, c);
      return h('li', { class: c === 'frozen' ? 'frozen' : c === 'hostage' ? 'hostage' : '' }, swatch(army), text);
    });
    rows.push(h('div', {}, h('strong', {}, S.status.control), h('ul', { class: 'armies' }, ...armies)));
    const active = new Set(activePlayers(pos));
    const out = (history ? pos.eliminations : snap.eliminations).filter((e) => !active.has(e.colour as Colour));
    if (out.length) {
      // A flag fall is a resignation to the engine; the move list says which it was.
      const onTime = new Set(snap.moves.filter((m) => m.kind === 'timeout').map((m) => m.colour));
      rows.push(
        h(
          'div',
          {},
          h('strong', {}, S.status.eliminated),
          h(
            'ul',
            { class: 'out' },
            ...out.map((e) =>
              h(
                'li',
                {},
                swatch(e.colour as Colour),
                e.cause === 'resigned' && onTime.has(e.colour as Colour)
                  ? S.status.eliminatedOnTime(playerName(snap, e.colour as Colour))
                  : S.status.eliminatedEntry(
                      playerName(snap, e.colour as Colour),
                      e.cause as EliminationCause,
                      e.by && e.by !== e.colour ? playerName(snap, e.by as Colour) : null,
                    ),
              ),
            ),
          ),
        ),
      );
    }
  }
  if (snap.clock.enabled) {
    rows.push(
      h(
        'div',
        {},
        h('strong', {}, S.status.clocks),
        h(
          'ul',
          { class: 'clocks' },
          ...snap.seats.map((seat) => {
            const running = snap.clock.running === seat.colour && snap.phase === 'playing';
            return h('li', { class: running ? 'running' : '' }, swatch(seat.colour), h('span', { class: 'clock' }, clockText(remaining(snap, seat, now))));
          }),
        ),
      ),
    );
  }
  replace(el, ...rows);
}

/**
 * The seats panel. `onSit` is offered for free seats when the viewer may still sit; `onSwap`
 * (seated viewer, before the start) moves to a free seat or asks the holder to swap.
 */
export function renderSeats(
  el: HTMLElement,
  snap: GameSnapshot,
  mySeat: Colour | null,
  now: number,
  onSit: ((c: Colour) => void) | null,
  onSwap: ((c: Colour) => void) | null = null,
  talk: { seats: readonly Colour[]; talk: (c: Colour) => void } | null = null,
  onReady: ((ready: boolean) => void) | null = null,
): void {
  const mine = snap.seats.find((s) => s.colour === mySeat);
  const items = snap.seats.map((seat) => {
    const you = seat.colour === mySeat;
    const state = !seat.taken
      ? S.game.seatFree
      : seat.presence === 'bot'
        ? S.game.seatBot
        : seat.standIn
          ? S.game.seatStandIn
          : seat.presence === 'away'
            ? S.game.seatAway(since(seat.since, now))
            : seat.presence === 'reconnecting'
              ? S.game.seatReconnecting(S.time.ago(Math.max(0, (now - seat.since) / 1000)))
              : S.game.seatConnected;
    const presence = seat.presence === 'reconnecting' ? 'away reconnecting' : seat.presence;
    return h(
      'li',
      { class: `seat ${presence}${you ? ' you' : ''}${seat.active ? '' : ' out'}`, 'data-colour': seat.colour },
      swatch(seat.colour),
      h('span', { class: 'name' }, seat.taken ? seat.name || S.colour(seat.colour) : S.colour(seat.colour)),
      you ? h('span', { class: 'tag you' }, S.game.seatYou) : null,
      seat.taken && seat.colour === snap.host ? h('span', { class: 'tag host', 'data-host': seat.colour }, S.game.hostBadge) : null,
      h('span', { class: 'presence' }, state),
      !seat.taken && onSit
        ? h('button', { type: 'button', class: 'small', 'data-sit': seat.colour, onclick: () => onSit(seat.colour) }, S.game.takeColour(seat.colour))
        : null,
      onSwap && !you ? swapButton(seat, mine, onSwap) : null,
      seat.taken && seat.swapWith && seat.swapWith === mySeat ? h('span', { class: 'tag swap' }, S.game.swapAsked) : null,
      snap.phase === 'waiting' && seat.taken && seat.ready ? h('span', { class: 'tag ready' }, S.game.seatReady) : null,
      you && onReady
        ? h(
            'button',
            { type: 'button', class: 'small', id: 'ready-toggle', 'aria-pressed': String(seat.ready), onclick: () => onReady(!seat.ready) },
            seat.ready ? S.game.notReady : S.game.imReady,
          )
        : null,
      talk?.seats.includes(seat.colour)
        ? h(
            'button',
            {
              type: 'button',
              class: 'small talk-to',
              'data-talk': seat.colour,
              'aria-label': S.press.talkToLabel(seat.name || S.colour(seat.colour)),
              onclick: () => talk.talk(seat.colour),
            },
            S.press.talkTo,
          )
        : null,
    );
  });
  for (const army of hostageArmies(snap.rules))
    items.push(
      h('li', { class: 'seat hostage' }, swatch(army), h('span', { class: 'name' }, S.colour(army)), h('span', { class: 'presence' }, S.game.seatHostage)),
    );
  const readyNote =
    snap.phase === 'waiting'
      ? h('p', { class: 'muted', id: 'ready-count' }, S.game.readyCount(snap.seats.filter((x) => x.taken && x.ready).length, snap.seats.length))
      : null;
  const watchers =
    snap.spectatorNames.length > 0
      ? h(
          'ul',
          { class: 'spectator-list', id: 'spectator-list', 'aria-label': S.game.spectatorList },
          ...snap.spectatorNames.map((n) => h('li', {}, displayName(n))),
        )
      : null;
  replace(
    el,
    h('ul', { class: 'seats' }, ...items),
    readyNote,
    h('p', { class: 'muted', id: 'spectator-count' }, S.game.spectators(snap.spectators)),
    watchers,
  );
}

function swapButton(seat: SeatSnapshot, mine: SeatSnapshot | undefined, onSwap: (c: Colour) => void): HTMLElement | null {
  if (!mine) return null;
  const label = !seat.taken ? S.game.moveHere : seat.swapWith === mine.colour ? S.game.acceptSwap : mine.swapWith === seat.colour ? null : S.game.askSwap;
  if (!label) return h('span', { class: 'presence' }, S.game.swapPending);
  return h('button', { type: 'button', class: 'small', 'data-swap': seat.colour, onclick: () => onSwap(seat.colour) }, label);
}

/** Text of a move list entry. */
export function moveText(m: MoveRecord): string {
  if (m.kind === 'turn') return m.text;
  if (m.kind === 'pass') return S.moves.pass;
  if (m.kind === 'resign') return S.moves.resign;
  if (m.kind === 'timeout') return S.moves.timeout;
  if (m.kind === 'draw') return S.status.resultDraw('agreement');
  return m.text || m.kind;
}

/** The move list; `selected` is the number of entries shown (null = live). */
export function renderMoves(el: HTMLElement, moves: readonly MoveRecord[], selected: number | null, replayable: number, onPick: (n: number) => void): void {
  if (moves.length === 0) {
    replace(el, h('p', { class: 'muted' }, S.moves.none));
    return;
  }
  const current = selected ?? moves.length;
  const items = moves.map((m, i) => {
    const n = i + 1;
    return h(
      'li',
      { class: n === current ? 'current' : '' },
      h(
        'button',
        {
          type: 'button',
          class: 'move',
          disabled: n > replayable,
          'aria-current': n === current ? 'step' : null,
          'aria-label': S.moves.moveLabel(n, `${m.colour ? S.colour(m.colour) : ''} ${moveText(m)}`),
          onclick: () => onPick(n),
        },
        m.colour ? swatch(m.colour) : null,
        moveText(m),
      ),
    );
  });
  const list = h('ol', { class: 'moves' }, ...items);
  replace(el, list);
  const cur = list.querySelector('.current');
  if (cur && selected === null) el.scrollTop = el.scrollHeight;
  else (cur as HTMLElement | null)?.scrollIntoView?.({ block: 'nearest' });
}
