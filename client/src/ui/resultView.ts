/**
 * The result screen, for players and spectators once the game is over: the winner (or the draw
 * and why), the ranking with how and when each player went out, the pacts and betrayals of the
 * game in one list, and the Rematch and Replay buttons. `resultModel` is the headless part
 * (tested in Node); `ResultView` draws it over the page, opens by itself when the game ends, and
 * can be closed and opened again (`open`, from the status card). The rematch is the server's:
 * the view sends `rematch { action }` and shows the `rematch_state` it gets; an accepter's
 * `rematch_seat` is stored like any seat key and the page moves to the new game.
 */
import type { Betrayal, Colour, DrawReason, PactView, RematchSeatMessage, RematchStateMessage } from '@djambi/shared';
import type { PressModel } from '../game/press.js';
import type { GameSnapshot } from '../game/snapshot.js';
import type { ResultHow } from '../i18n/result.js';
import { S } from '../i18n/strings.js';
import { loadSeat, saveSeat } from '../net/seatStore.js';
import { h, link, navigate, replace } from './dom.js';
import { playerName as seatName, swatch } from './panels.js';

/** One line of the ranking. */
export interface RankLine {
  readonly rank: number;
  readonly colour: Colour;
  readonly name: string;
  readonly how: ResultHow;
  readonly by: Colour | null;
  /** 1-based move of the elimination (null for those still in). */
  readonly move: number | null;
}

/** One line of the pacts and betrayals, in game order (`move` 1-based). */
export type PactLine =
  | { readonly kind: 'pact'; readonly members: readonly Colour[]; readonly from: number | null; readonly to: number | null; readonly end: PactEnd }
  | { readonly kind: 'betrayal'; readonly traitor: Colour; readonly victim: Colour; readonly move: number; readonly turn: string };

type PactEnd = PactView['endReason'];

/** What the viewer may do about the rematch now. */
export type RematchChoice = 'offer' | 'answer' | 'accepted' | 'none';

/** The result screen's content. */
export interface ResultModel {
  readonly winner: Colour | null;
  readonly draw: DrawReason | null;
  readonly ranking: readonly RankLine[];
  readonly pacts: readonly PactLine[];
  readonly rematch: RematchStateMessage | null;
  readonly choice: RematchChoice;
}

/** What the press knows of the game's pacts and betrayals (the reveal's, after the game). */
export interface PactSource {
  readonly pacts: readonly PactView[];
  readonly betrayals: readonly Betrayal[];
}

/** The pacts and betrayals of the game as the press model holds them: the reveal's once it came. */
export function pactsOf(press: Pick<PressModel, 'reveal' | 'betrayals' | 'pactGroups'>): PactSource {
  if (press.reveal) return { pacts: press.reveal.pacts, betrayals: press.reveal.betrayals };
  const groups = press.pactGroups();
  return { pacts: [...groups.inForce, ...groups.ended], betrayals: press.betrayals };
}

/** The result screen of a finished game (null while it goes on). */
export function resultModel(snap: GameSnapshot, mySeat: Colour | null, press: PactSource, rematch: RematchStateMessage | null): ResultModel | null {
  const r = snap.result;
  if (snap.phase !== 'over' || !r) return null;
  const winner = r.kind === 'win' && r.winner ? r.winner : null;
  const timedOut = new Set(snap.moves.filter((m) => m.kind === 'timeout').map((m) => m.colour));
  const ranking: RankLine[] = [];
  r.ranking.forEach((group, i) => {
    for (const ch of group) {
      const colour = ch as Colour;
      const out = snap.eliminations.find((e) => e.colour === colour);
      let how: ResultHow = colour === winner ? 'winner' : 'survivor';
      if (out) how = out.cause === 'resigned' && timedOut.has(colour) ? 'time' : (out.cause as ResultHow);
      ranking.push({ rank: i + 1, colour, name: seatName(snap, colour), how, by: out?.by || null, move: out ? out.ply + 1 : null });
    }
  });
  const moveOf = (ply: number | null) => (ply === null ? null : ply + 1);
  const lines: { at: number; line: PactLine }[] = [];
  for (const p of press.pacts) {
    if (p.inForcePly === null) continue;
    lines.push({ at: p.inForcePly, line: { kind: 'pact', members: p.members, from: p.inForcePly + 1, to: moveOf(p.endedPly), end: p.endReason } });
  }
  for (const b of press.betrayals)
    lines.push({ at: b.ply + 0.5, line: { kind: 'betrayal', traitor: b.traitor, victim: b.victim, move: b.ply + 1, turn: b.turnText } });
  const pacts = lines.sort((a, b) => a.at - b.at).map((l) => l.line);
  const draw = r.kind === 'draw' ? (r.reason as DrawReason) : null;
  return { winner, draw, ranking, pacts, rematch, choice: choiceOf(snap, mySeat, rematch) };
}

function choiceOf(snap: GameSnapshot, mySeat: Colour | null, rematch: RematchStateMessage | null): RematchChoice {
  const seat = mySeat ? snap.seats.find((s) => s.colour === mySeat) : undefined;
  if (!mySeat || !seat?.taken) return 'none';
  if (!rematch || rematch.status === 'cancelled' || rematch.status === 'failed') return 'offer';
  if (rematch.status !== 'open') return rematch.accepted.includes(mySeat) ? 'accepted' : 'none';
  return rematch.accepted.includes(mySeat) ? 'accepted' : 'answer';
}

/** What the view asks of its page. */
export interface ResultActions {
  /** Sends `rematch { action }`. */
  rematch(action: 'offer' | 'accept' | 'decline'): void;
}

/** The result screen over the game page. */
export class ResultView {
  readonly element = h('div', { id: 'result-screen', class: 'result-backdrop', hidden: true });
  private readonly panel = h('section', { class: 'result card', role: 'dialog', 'aria-labelledby': 'result-title' });
  private snap: GameSnapshot | null = null;
  private mySeat: Colour | null = null;
  private press: PactSource = { pacts: [], betrayals: [] };
  private rematch: RematchStateMessage | null = null;
  /** The viewer closed the screen (it opens by itself once, when the game is over). */
  private closed = false;
  private ticker: ReturnType<typeof setInterval> | null = null;

  /** `now`: the server's clock (the rematch deadline is a server time). */
  constructor(
    private readonly actions: ResultActions,
    private readonly now: () => number = Date.now,
  ) {
    this.element.appendChild(this.panel);
    this.element.addEventListener('keydown', (e) => e.key === 'Escape' && this.close());
  }

  /** Takes in the room state, the viewer's seat and the press's pacts. */
  render(snap: GameSnapshot, mySeat: Colour | null, press: PactSource): void {
    this.snap = snap;
    this.mySeat = mySeat;
    this.press = press;
    this.draw();
  }

  /** The press's pacts or betrayals changed (the reveal came). */
  pressChanged(press: PactSource): void {
    this.press = press;
    if (this.snap?.phase === 'over') this.draw();
  }

  /** A rematch message from the server. */
  receive(type: string, payload: unknown): void {
    if (type === 'rematch_state') {
      this.rematch = payload as RematchStateMessage;
      this.draw();
    } else if (type === 'rematch_seat') {
      // Stored once and followed once: back on this page later, the link leads there instead.
      const seat = payload as RematchSeatMessage;
      if (loadSeat(seat.code)?.seatKey === seat.seatKey) return;
      saveSeat(seat.code, { colour: seat.colour, seatKey: seat.seatKey });
      navigate(`/g/${seat.code}`);
    }
  }

  /** Shows the screen again (the status card's Result button). */
  open(): void {
    this.closed = false;
    this.draw();
    this.panel.querySelector<HTMLButtonElement>('button')?.focus();
  }

  /** Stops the countdown. */
  dispose(): void {
    if (this.ticker !== null) clearInterval(this.ticker);
    this.ticker = null;
  }

  private close(): void {
    this.closed = true;
    this.draw();
  }

  private draw(): void {
    const model = this.snap ? resultModel(this.snap, this.mySeat, this.press, this.rematch) : null;
    const shown = model !== null && !this.closed;
    this.element.hidden = !shown;
    const counting = shown && model.rematch?.status === 'open';
    if (counting && this.ticker === null) this.ticker = setInterval(() => this.draw(), 1000);
    if (!counting) this.dispose();
    if (!shown || !this.snap) return;
    const snap = this.snap;
    const name = (c: Colour) => seatName(snap, c);
    const names = (cs: readonly Colour[]) => cs.map(name).join(', ');
    const t = S.result;
    const headline = model.winner ? t.win(name(model.winner)) : t.draw(model.draw ?? 'agreement');
    const rank = (l: RankLine) => [
      h('span', { class: 'rank' }, t.rank(l.rank)),
      swatch(l.colour),
      h('strong', {}, l.name),
      ' ',
      h('span', { class: 'muted' }, t.how(l.how, l.by ? name(l.by) : null, l.move)),
    ];
    const pact = (p: PactLine) =>
      p.kind === 'pact' ? t.pact(names(p.members), p.from, p.to, p.end) : t.betrayal(name(p.traitor), name(p.victim), p.move, p.turn);
    const button = (action: 'offer' | 'accept' | 'decline', label: string) =>
      h(
        'button',
        { type: 'button', id: `rematch-${action}`, class: action === 'decline' ? null : 'primary', onclick: () => this.actions.rematch(action) },
        label,
      );
    const { choice } = model;
    replace(
      this.panel,
      h('h2', { id: 'result-title' }, t.title),
      h('p', { class: 'result-headline', id: 'result-headline' }, model.winner ? swatch(model.winner) : null, headline),
      h('h3', {}, t.ranking),
      h(
        'ol',
        { class: 'result-ranking', id: 'result-ranking' },
        ...model.ranking.map((l) => h('li', { 'data-colour': l.colour, 'data-how': l.how }, ...rank(l))),
      ),
      h('h3', {}, t.pactsTitle),
      model.pacts.length === 0
        ? h('p', { class: 'muted' }, t.noPacts)
        : h('ul', { class: 'result-pacts', id: 'result-pacts' }, ...model.pacts.map((p) => h('li', { class: p.kind }, pact(p)))),
      this.rematchBlock(model, names),
      h(
        'div',
        { class: 'result-buttons' },
        choice === 'offer' ? button('offer', t.rematch) : null,
        choice === 'answer' ? button('accept', t.accept) : null,
        choice === 'answer' || (choice === 'accepted' && model.rematch?.status === 'open') ? button('decline', t.decline) : null,
        link(`/g/${snap.code}/replay`, t.replay, { id: 'result-replay', class: 'button' }),
        h('button', { type: 'button', id: 'result-close', onclick: () => this.close() }, t.close),
      ),
    );
  }

  private rematchBlock(model: ResultModel, names: (cs: readonly Colour[]) => string): HTMLElement | null {
    const r = model.rematch;
    if (!r) return null;
    const t = S.result;
    const lines: (string | HTMLElement)[] = [];
    if (r.status === 'open') {
      const waiting = r.asked.filter((c) => !r.accepted.includes(c) && !r.declined.includes(c));
      lines.push(t.offeredBy(names([r.by])));
      if (r.accepted.length) lines.push(t.accepted(names(r.accepted)));
      if (r.declined.length) lines.push(t.declined(names(r.declined)));
      if (waiting.length) lines.push(t.waiting(names(waiting), Math.max(0, Math.ceil((r.deadline - this.now()) / 1000))));
    } else if (r.status === 'creating') lines.push(t.creating);
    else if (r.status === 'created' && r.code) {
      lines.push(model.choice === 'accepted' ? t.moving : t.created);
      lines.push(link(`/g/${r.code}`, t.goToRematch, { id: 'rematch-link' }));
    } else lines.push(r.status === 'failed' ? t.failed : t.cancelled);
    return h('div', { class: 'result-rematch', id: 'result-rematch', 'data-status': r.status, 'aria-live': 'polite' }, ...lines.map((l) => h('p', {}, l)));
  }
}
