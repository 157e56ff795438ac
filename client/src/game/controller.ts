/**
 * The headless board controller: holds the position on screen and the turn being built,
 * turns clicks, drags and typed squares into the steps of a Djambi turn, and says what to
 * highlight and what to ask. It decides no rule: every option comes from the engine's
 * `nextChoice`, the way chessground receives its `dests` from chessops. Pure TypeScript,
 * no DOM and no Pixi, so it is tested without a browser.
 */
import {
  geometryOf,
  SQUARE,
  nextChoice,
  pieceAt,
  pieces,
  playTurn,
  type Choice,
  type Colour,
  type Effect,
  type PartialTurn,
  type Position,
  type SquareName,
  type Turn,
} from '@djambi/shared';

/** A field of the partial turn that a step fills. */
type Field = 'from' | 'to' | 'placement' | 'exit' | 'reporterTarget';

/** Which message the UI shows above the board. */
export type PromptKey =
  | 'spectator'
  | 'notStarted'
  | 'gameOver'
  | 'history'
  | 'notYourTurn'
  | 'piece'
  | 'destination'
  | 'placement'
  | 'placementDisplaced'
  | 'placementCorpse'
  | 'exit'
  | 'reporter'
  | 'reporterRequired'
  | 'confirm'
  | 'breaksPact'
  | 'sending'
  | 'reconnecting'
  /** The link is down (the viewer's turn, nothing chosen yet): a turn made now is sent when it is back. */
  | 'linkDown';

/** The prompt plus the player it is about (for `notYourTurn`) or the pact partners a turn betrays (`breaksPact`). */
export interface Prompt {
  readonly key: PromptKey;
  readonly colour?: Colour;
  readonly partners?: readonly Colour[];
}

/** What the renderer highlights. */
export interface Highlights {
  /** The piece being moved. */
  readonly selected: SquareName | null;
  /** Squares already chosen in this turn (destination, placement, exit, victim). */
  readonly chosen: readonly SquareName[];
  /** What the current step accepts. */
  readonly options: readonly SquareName[];
  /** The kind of the current step, or null when nothing can be chosen. */
  readonly optionKind: Choice['kind'] | null;
}

/**
 * Where pieces are shown while a turn is being built (display only, not a rule). Pieces are
 * named by the square they stand on in the position.
 */
export interface Preview {
  /** Pieces drawn somewhere other than their square: square → shown square. */
  readonly moved: ReadonlyMap<SquareName, SquareName>;
  /** Pieces lifted off the board until they are placed (the victim or displaced piece). */
  readonly lifted: readonly SquareName[];
  /** Pieces shown as corpses. */
  readonly killed: readonly SquareName[];
}

/** Everything the view needs, recomputed after each change. */
export interface ControllerView {
  readonly position: Position | null;
  readonly seat: Colour | null;
  /** True when the viewer may act on the board now. */
  readonly interactive: boolean;
  readonly partial: PartialTurn;
  readonly choice: Choice | null;
  /** The complete turn waiting for confirmation or being sent. */
  readonly pending: Turn | null;
  /** A turn is with the server (or on its way): the board waits for the answer. */
  readonly sending: boolean;
  /** The turn being sent waits for the link to come back (it is sent again then). */
  readonly queued: boolean;
  readonly prompt: Prompt;
  readonly highlights: Highlights;
  readonly preview: Preview;
  /** "No kill" is offered now. */
  readonly canSkipKill: boolean;
  readonly canUndo: boolean;
  /** Error of the last action (an engine or server code), cleared by the next action. */
  readonly error: string | null;
}

/** What an input did. */
export type Outcome = 'selected' | 'deselected' | 'chosen' | 'complete' | 'submitted' | 'undone' | 'ignored' | 'illegal';

/** Options of a controller. */
export interface ControllerOptions {
  /** Ask for confirmation before sending a complete turn. */
  confirm?: boolean;
  /**
   * Called with each complete turn to send to the server, and the state version it was made on
   * (the `version` given to `setPosition`). Returns false when the turn could not go out: it is
   * kept and sent again, with the same version, when the link is back (`setLink(true)`).
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: a callback that returns nothing means "sent".
  onSubmit?: (turn: Turn, version: number | undefined) => boolean | void;
  /**
   * The pact partners a complete turn would betray (e.g. the shared `pactBreaches` over the
   * viewer's pacts in force). A turn that betrays someone is never sent at once: the prompt
   * says `breaksPact` and waits for `confirm`, even with confirmation off.
   */
  breaches?: (position: Position, turn: Turn) => readonly Colour[];
}

/**
 * A complete turn handed to the server and not yet answered, by a new state or a refusal. It
 * outlives a dropped link and a look at the history: an intent is never dropped.
 */
interface Outbox {
  readonly turn: Turn;
  /** The state version the turn was made on: sent with it and with every resend. */
  readonly version: number | undefined;
  /** The seat and the position (ply, player to move) it was made for. */
  readonly seat: Colour;
  readonly ply: number;
  readonly toMove: Colour | null;
  /** The last send went out on an open socket. */
  delivered: boolean;
  /** How many sends went out (each is answered by the new state or a refusal). */
  sends: number;
}

const NO_PREVIEW: Preview = { moved: new Map(), lifted: [], killed: [] };
const NO_HIGHLIGHTS: Highlights = { selected: null, chosen: [], options: [], optionKind: null };

/** The controller. One per board; feed it positions, clicks and server answers. */
export class GameController {
  private position: Position | null = null;
  private seat: Colour | null = null;
  private started = true;
  private history = false;
  private confirmTurns: boolean;
  // biome-ignore lint/suspicious/noConfusingVoidType: as `ControllerOptions.onSubmit`.
  private readonly onSubmit: (turn: Turn, version: number | undefined) => boolean | void;
  private readonly breaches: (position: Position, turn: Turn) => readonly Colour[];
  private steps: { field: Field; value: SquareName | null }[] = [];
  private pending: Turn | null = null;
  private outbox: Outbox | null = null;
  /** The live state version (docs/PROTOCOL.md), as last given to `setPosition`. */
  private version: number | undefined = undefined;
  private linkUp = true;
  /** `stale` refusals still to come for resends of turns a new state already settled. */
  private staleOwed = 0;
  private error: string | null = null;
  private movable: readonly SquareName[] = [];
  private cached: ControllerView | null = null;
  private readonly listeners = new Set<(view: ControllerView) => void>();

  constructor(options: ControllerOptions = {}) {
    this.confirmTurns = options.confirm ?? false;
    this.onSubmit = options.onSubmit ?? (() => undefined);
    this.breaches = options.breaches ?? (() => []);
  }

  /**
   * Show a position. `seat` is the viewer's seat (null for a spectator); `version` is the live
   * state's version, sent with a turn. A new position (another ply, another version) drops the
   * turn being built; the same position again keeps it. The turn being sent is settled (applied
   * or overtaken) by a new live position or version, and kept across a look at the history.
   */
  setPosition(position: Position | null, seat: Colour | null, opts: { started?: boolean; history?: boolean; version?: number } = {}): void {
    const history = opts.history ?? false;
    const version = opts.version ?? this.version;
    const samePosition = position !== null && this.position !== null && position.ply === this.position.ply && position.toMove === this.position.toMove;
    const sameContext = samePosition && seat === this.seat && history === this.history && version === this.version;
    this.position = position;
    this.seat = seat;
    this.started = opts.started ?? true;
    this.history = history;
    this.version = version;
    const settled = this.settleOutbox();
    if (!sameContext || settled) {
      this.reset();
      if (this.outbox && !history) this.showOutbox(this.outbox.turn);
    }
    this.movable = this.canAct() && position ? optionsOf(nextChoice(position, {}), 'piece') : [];
    this.changed();
  }

  /**
   * The link to the server went down, or came back (a new room). While it is down a turn being
   * sent waits (the prompt says it will be sent); when it is back the turn is sent again, once,
   * with the version it was made on: if the server had it already, its stale check refuses the
   * copy and the new state settles the turn.
   */
  setLink(up: boolean): void {
    const was = this.linkUp;
    this.linkUp = up;
    const box = this.outbox;
    if (box && !up) box.delivered = false;
    else if (box && up && (!was || !box.delivered)) this.deliver(box);
    this.changed();
  }

  /** Turn the confirmation step on or off. */
  setConfirm(on: boolean): void {
    this.confirmTurns = on;
    if (!on && this.pending && !this.outbox) this.submit();
    this.changed();
  }

  /** A click or tap on a square. */
  click(square: SquareName): Outcome {
    this.error = null;
    const choice = this.currentChoice();
    if (!choice || this.outbox) return this.done('ignored');
    const from = this.partial().from;
    switch (choice.kind) {
      case 'piece':
        if (choice.options.includes(square)) return this.push('from', square, 'selected');
        return this.ownPiece(square) ? this.illegal('not_movable') : this.done('ignored');
      case 'destination':
        if (square === from) return this.clear('deselected');
        if (choice.options.includes(square)) return this.push('to', square);
        if (this.movable.includes(square)) {
          this.steps = [];
          return this.push('from', square, 'selected');
        }
        return this.clear('deselected');
      case 'placement':
      case 'exit':
        if (choice.options.includes(square)) return this.push(choice.kind, square);
        return this.illegal();
      case 'reporter':
        if (choice.options.includes(square)) return this.push('reporterTarget', square);
        // Tapping the reporter again declines the kill.
        if (square === this.partial().to && !choice.required) return this.push('reporterTarget', null);
        return this.illegal();
      case 'complete':
        // A click on the last chosen square confirms, anything else is ignored.
        if (this.pending && this.steps.length > 0 && this.steps[this.steps.length - 1].value === square) return this.confirm();
        return this.done('ignored');
    }
  }

  /** A drag of the piece on `from` dropped on `to`. */
  drop(from: SquareName, to: SquareName): Outcome {
    if (from === to || this.outbox) return this.done('ignored');
    const choice = this.currentChoice();
    if (!choice || (choice.kind !== 'piece' && choice.kind !== 'destination')) return this.done('ignored');
    if (this.partial().from !== from) {
      if (!this.movable.includes(from)) return this.illegal();
      this.steps = [];
      this.push('from', from, 'selected');
    }
    const next = this.currentChoice();
    if (next?.kind !== 'destination' || !next.options.includes(to)) {
      this.error = 'illegal_destination';
      return this.done('illegal');
    }
    return this.push('to', to);
  }

  /** True when a drag may start on this square (a piece the viewer can move now). */
  canDrag(square: SquareName): boolean {
    if (this.outbox) return false;
    const choice = this.currentChoice();
    if (!choice || (choice.kind !== 'piece' && choice.kind !== 'destination')) return false;
    return this.movable.includes(square);
  }

  /** Decline the reporter's kill. */
  noKill(): Outcome {
    this.error = null;
    const choice = this.currentChoice();
    if (choice?.kind !== 'reporter' || choice.required || this.outbox) return this.done('ignored');
    return this.push('reporterTarget', null);
  }

  /** Take back the last choice of the turn being built. */
  undo(): Outcome {
    this.error = null;
    if (this.outbox || this.steps.length === 0) return this.done('ignored');
    this.steps.pop();
    this.pending = null;
    return this.done('undone');
  }

  /** Drop the whole turn being built. */
  cancel(): Outcome {
    this.error = null;
    if (this.outbox || this.steps.length === 0) return this.done('ignored');
    return this.clear('deselected');
  }

  /** The viewer's pacts changed: ask `breaches` again about the turn waiting for confirmation. */
  pactsChanged(): void {
    if (this.pending) this.changed();
  }

  /** Send the turn waiting for confirmation. */
  confirm(): Outcome {
    this.error = null;
    if (!this.pending || this.outbox) return this.done('ignored');
    this.submit();
    return this.done('submitted');
  }

  /**
   * Keyboard input: squares (`e5`, `b8e5`, `b8-e5 d4`, a turn in notation `a5xa3>e9`) are clicked in order; `x`, `-`, `0` or
   * `none` declines a reporter kill; `undo`/`u` undoes; an empty line confirms.
   */
  input(text: string): Outcome {
    const clean = text.trim().toLowerCase();
    if (clean === '') return this.pending ? this.confirm() : this.done('ignored');
    if (clean === 'u' || clean === 'undo') return this.undo();
    if (clean === 'x' || clean === '-' || clean === '0' || clean === 'none' || clean === 'no') return this.noKill();
    // Cell names in any case: the square board's `e5`, a hex board's `E5` or `D13`.
    const typed = clean.match(/[a-z]\d{1,2}/g);
    const g = this.position ? geometryOf(this.position) : SQUARE;
    const names = typed?.map((t) => g.names.find((n) => n.toLowerCase() === t));
    // A turn in notation may mark a kill with `x` between two cells (`a5xa3>e9`, `E1xC1>D1`).
    const bare = clean.replace(/(\d)x(?=[a-z]\d)/g, '$1').replace(/[^a-z0-9]/g, '');
    if (!typed || !names || typed.join('') !== bare || names.some((n) => n === undefined)) {
      this.error = 'bad_square';
      return this.done('illegal');
    }
    const squares = names as SquareName[];
    let outcome: Outcome = 'ignored';
    for (const sq of squares) {
      outcome = this.click(sq);
      if (outcome === 'illegal' || outcome === 'ignored') break;
    }
    return outcome;
  }

  /**
   * The server refused a turn: start the turn again and keep the code to show; returns true.
   * A `stale` refusal of a resend whose turn a new state already settled (the server had the
   * first copy) changes nothing and returns false: there is nothing to say.
   */
  rejected(code: string): boolean {
    if (code === 'stale' && (this.staleOwed > 0 || !this.outbox)) {
      this.staleOwed = Math.max(0, this.staleOwed - 1);
      return false;
    }
    this.outbox = null;
    this.reset();
    this.error = code;
    this.changed();
    return true;
  }

  /** The current view (cached until the next change). */
  get view(): ControllerView {
    if (!this.cached) this.cached = this.computeView();
    return this.cached;
  }

  /** Listen to view changes; returns the unsubscribe function. */
  subscribe(listener: (view: ControllerView) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  // -------------------------------------------------------------------------------------------

  private canAct(): boolean {
    const pos = this.position;
    return !!pos && this.started && !this.history && this.seat !== null && pos.result === null && pos.toMove === this.seat;
  }

  private partial(): PartialTurn {
    const out: Record<string, SquareName | null> = {};
    for (const step of this.steps) out[step.field] = step.value;
    return out as PartialTurn;
  }

  private currentChoice(): Choice | null {
    if (!this.canAct() || !this.position) return null;
    const res = nextChoice(this.position, this.partial());
    if (!res.ok) return null;
    // No movable piece: the server passes automatically; there is nothing to choose.
    if (res.value.kind === 'complete' && this.steps.length === 0) return null;
    return res.value;
  }

  private ownPiece(square: SquareName): boolean {
    if (!this.position) return false;
    const p = pieceAt(this.position, square);
    return !!p && p.alive && p.colour === this.seat;
  }

  private push(field: Field, value: SquareName | null, outcome: Outcome = 'chosen'): Outcome {
    const pos = this.position!;
    this.steps.push({ field, value });
    const res = nextChoice(pos, this.partial());
    if (!res.ok) {
      // The engine refused a step it offered: a broken invariant; undo it and say so.
      this.steps.pop();
      this.error = res.error.code;
      return this.done('illegal');
    }
    if (res.value.kind === 'complete') {
      this.pending = res.value.turn;
      if (!this.confirmTurns && this.betrayed().length === 0) {
        this.submit();
        return this.done('submitted');
      }
      return this.done('complete');
    }
    return this.done(outcome);
  }

  private submit(): void {
    const pos = this.position;
    if (!this.pending || !pos || !this.seat) return;
    const box: Outbox = { turn: this.pending, version: this.version, seat: this.seat, ply: pos.ply, toMove: pos.toMove, delivered: false, sends: 0 };
    this.outbox = box;
    this.deliver(box);
  }

  /** Hand the turn to the server; a send that cannot go out leaves it waiting for the link. */
  private deliver(box: Outbox): void {
    box.delivered = this.onSubmit(box.turn, box.version) !== false;
    if (box.delivered) box.sends++;
  }

  /**
   * Drop the turn being sent once the live game moved on (a new version, another live
   * position) or the seat changed: the new state is the server's answer. Sends beyond the first
   * may still be answered `stale`. Returns true when a turn was settled.
   */
  private settleOutbox(): boolean {
    const box = this.outbox;
    if (!box) return false;
    const pos = this.position;
    const newVersion = box.version !== undefined && this.version !== undefined && this.version !== box.version;
    const moved = !this.history && pos !== null && (pos.ply !== box.ply || pos.toMove !== box.toMove);
    if (!newVersion && !moved && this.seat === box.seat) return false;
    this.staleOwed += Math.max(0, box.sends - 1);
    this.outbox = null;
    return true;
  }

  /** Show the turn being sent as chosen squares (after a look at the history). */
  private showOutbox(turn: Turn): void {
    if (!('from' in turn)) return;
    this.steps = [
      { field: 'from', value: turn.from },
      { field: 'to', value: turn.to },
    ];
    for (const field of ['exit', 'placement', 'reporterTarget'] as const) {
      const value = turn[field];
      if (value) this.steps.push({ field, value });
    }
    // A declined reporter kill is a choice too.
    const next = this.position ? nextChoice(this.position, this.partial()) : null;
    if (next?.ok && next.value.kind === 'reporter') this.steps.push({ field: 'reporterTarget', value: null });
    this.pending = turn;
  }

  private illegal(code = 'illegal_choice'): Outcome {
    this.error = code;
    return this.done('illegal');
  }

  private clear(outcome: Outcome): Outcome {
    this.reset();
    return this.done(outcome);
  }

  /** Drop the turn being built (not the one being sent). */
  private reset(): void {
    this.steps = [];
    this.pending = null;
    this.error = null;
  }

  private done(outcome: Outcome): Outcome {
    this.changed();
    return outcome;
  }

  private changed(): void {
    this.cached = null;
    if (this.listeners.size === 0) return;
    const view = this.view;
    for (const l of this.listeners) l(view);
  }

  private computeView(): ControllerView {
    const pos = this.position;
    const partial = this.partial();
    const choice = this.currentChoice();
    const sending = this.outbox !== null;
    const interactive = choice !== null && !sending;
    const chosen = this.steps.slice(1).flatMap((s) => (s.value ? [s.value] : []));
    const highlights: Highlights = pos
      ? {
          selected: partial.from ?? null,
          chosen,
          options: choice && choice.kind !== 'complete' && !sending ? choice.options : [],
          optionKind: choice && !sending ? choice.kind : null,
        }
      : NO_HIGHLIGHTS;
    return {
      position: pos,
      seat: this.seat,
      interactive,
      partial,
      choice,
      pending: this.pending,
      sending,
      queued: sending && !this.delivering(),
      prompt: this.prompt(choice, partial),
      highlights,
      preview: pos ? this.preview(pos, partial) : NO_PREVIEW,
      canSkipKill: choice?.kind === 'reporter' && !choice.required && !sending,
      canUndo: this.steps.length > 0 && !sending,
      error: this.error,
    };
  }

  private prompt(choice: Choice | null, partial: PartialTurn): Prompt {
    const pos = this.position;
    if (!pos || !this.started) return { key: 'notStarted' };
    if (this.history) return { key: 'history' };
    if (pos.result || pos.toMove === null) return { key: 'gameOver' };
    if (this.seat === null) return { key: 'spectator' };
    if (pos.toMove !== this.seat) return { key: 'notYourTurn', colour: pos.toMove };
    if (this.outbox) return { key: this.delivering() ? 'sending' : 'reconnecting' };
    if (!choice) return { key: 'notYourTurn', colour: pos.toMove };
    switch (choice.kind) {
      case 'piece':
        // Not "your turn" while the link is down: say so (a turn made now waits to be sent).
        return { key: this.linkUp ? 'piece' : 'linkDown' };
      case 'destination':
        return { key: 'destination' };
      case 'placement': {
        const mover = partial.from ? pieceAt(pos, partial.from) : null;
        const target = partial.to ? pieceAt(pos, partial.to) : null;
        if (mover?.kind === 'diplomat') return { key: 'placementDisplaced' };
        if (mover?.kind === 'necromobile' || (target && !target.alive)) return { key: 'placementCorpse' };
        return { key: 'placement' };
      }
      case 'exit':
        return { key: 'exit' };
      case 'reporter':
        return { key: choice.required ? 'reporterRequired' : 'reporter' };
      case 'complete': {
        const partners = this.betrayed();
        return partners.length > 0 ? { key: 'breaksPact', partners } : { key: 'confirm' };
      }
    }
  }

  /** The pact partners the complete turn waiting for confirmation would betray. */
  private betrayed(): readonly Colour[] {
    return this.pending && this.position ? this.breaches(this.position, this.pending) : [];
  }

  /** The turn being sent went out on a link that is still up. */
  private delivering(): boolean {
    return this.linkUp && !!this.outbox?.delivered;
  }

  /** Show the mover on its destination (and exit), the victim lifted until placed. */
  private preview(pos: Position, partial: PartialTurn): Preview {
    if (!partial.from || !partial.to) return NO_PREVIEW;
    if (this.pending) {
      // The turn is complete: let the engine show exactly what it does.
      const played = playTurn(pos, this.pending);
      if (played.ok) return previewFromEffects(pos, played.value.effects);
    }
    const mover = pieceAt(pos, partial.from);
    if (!mover) return NO_PREVIEW;
    const moved = new Map<SquareName, SquareName>([[partial.from, partial.exit ?? partial.to]]);
    const lifted: SquareName[] = [];
    const target = pieceAt(pos, partial.to);
    if (target && target.id !== mover.id) {
      if (partial.placement) moved.set(partial.to, partial.placement);
      else if (mover.kind !== 'reporter') lifted.push(partial.to);
    }
    return { moved, lifted, killed: [] };
  }
}

/** Final squares of the pieces an engine turn moves, keyed by their squares before it. */
function previewFromEffects(pos: Position, effects: readonly Effect[]): Preview {
  const start = new Map(pieces(pos).map((p) => [p.id, p.square]));
  const moved = new Map<SquareName, SquareName>();
  const killed: SquareName[] = [];
  for (const e of effects) {
    const sq = start.get((e as { piece?: number }).piece ?? -1);
    if (!sq) continue;
    if (e.type === 'move' || e.type === 'displace' || e.type === 'place' || e.type === 'exit') moved.set(sq, e.to);
    else if (e.type === 'kill') killed.push(sq);
  }
  return { moved, lifted: [], killed };
}

function optionsOf(res: ReturnType<typeof nextChoice>, kind: Choice['kind']): readonly SquareName[] {
  return res.ok && res.value.kind === kind && 'options' in res.value ? res.value.options : [];
}
