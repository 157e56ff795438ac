/**
 * The negotiation ("press", docs/PRESS.md) as this viewer sees it: the channels the server told
 * it about, with their messages (the latest ones first, older pages on request with
 * `press_page`) and unread counts; the pacts, betrayals and the after-game reveal it was sent;
 * and the panel's own state (selected tab, drafts, the inline rejection, pages on their way).
 * Everything comes from server messages: who may read or write, whether a pact is in force,
 * what is a betrayal, all of that is the server's. The intents go out through `send`.
 * Pure TypeScript, no DOM and no Colyseus, so it is tested without a browser.
 */
import {
  COLOURS,
  MAX_MESSAGE_CHARS,
  PAGE_MESSAGES,
  type Betrayal,
  type ChannelExistence,
  type ChannelKind,
  type ChannelView,
  type Colour,
  type PactView,
  PRESS_CLIENT_MESSAGES,
  type PressHistory,
  type PressMessage,
  type PressPhase,
  type PressReveal,
  type PressServerMessage,
  type PressServerMessages,
  type RevealItem,
  mayWrite,
} from '@djambi/shared';

/** Client → server types whose rejections belong to the negotiation panel (draw offers stay with the page). */
const PANEL_TYPES = PRESS_CLIENT_MESSAGES.filter((t) => !t.startsWith('draw_'));

/** Live pact events kept for the panel's notices. */
const MAX_NOTICES = 12;

/** The tab of the after-game reveal. */
export const REVEAL_TAB = 'reveal';
/** The table channel's id. */
export const TABLE = 'table';
/** The spectators' channel id. */
export const SPECTATORS = 'spectators';

/** A channel as this member holds it: the wire view, with `members` empty (not null) for table and spectators. */
export interface Channel extends Omit<ChannelView, 'members'> {
  /** Member seats of a private or group channel (empty for table and spectators). */
  readonly members: readonly Colour[];
}

/** A live pact event (a `pact` message), for the panel's notices; `seq` is its arrival order. */
export type PactNotice = PressServerMessages['pact'] & { readonly seq: number };

/** Where a rejection is shown. */
export type PressArea = 'chat' | 'open' | 'pact';

/** A refusal from the server, shown inline where the action was made. */
export interface PressError {
  readonly area: PressArea;
  readonly code: string;
  readonly message: string;
  readonly retryAfterMs: number | null;
}

/** What the page knows from the room state, for the panel's hints. */
export interface PressContext {
  readonly seat: Colour | null;
  /** Active (not eliminated) seats. */
  readonly active: readonly Colour[];
  readonly phase: PressPhase;
}

/** One tab of the panel. */
export interface PressTab {
  readonly id: string;
  readonly kind: ChannelKind | 'reveal';
  /** The other members of a private or group channel. */
  readonly others: readonly Colour[];
  readonly unread: number;
}

/** One line of a channel's feed: a message, or (table) an announced pact or a betrayal. */
export type FeedItem =
  | { readonly kind: 'message'; readonly message: PressMessage; readonly mine: boolean }
  | { readonly kind: 'pact'; readonly pact: PactView; readonly event: 'in_force' | 'ended' }
  | { readonly kind: 'betrayal'; readonly betrayal: Betrayal };

/** The pacts, sorted for the panel. */
export interface PactGroups {
  /** Proposals waiting for this viewer's answer. */
  readonly invitations: readonly PactView[];
  /** Proposals this viewer has accepted, waiting for others. */
  readonly waiting: readonly PactView[];
  readonly inForce: readonly PactView[];
  readonly ended: readonly PactView[];
}

/** Who a viewer may mute: one seat (its colour), or every spectator at once. */
export type MuteTarget = Colour | typeof SPECTATORS;

/** Where the muted authors of one game are kept (the page: `localStorage`, per game code). */
export interface MuteStore {
  load(): readonly string[];
  save(targets: readonly MuteTarget[]): void;
}

/** A message author's mute target: its seat colour, or `spectators` for any spectator. */
export function muteTargetOf(from: string): MuteTarget {
  return (COLOURS as readonly string[]).includes(from) ? (from as Colour) : SPECTATORS;
}

/** Whether the viewer may write in a channel (a hint: the server decides). */
export type ComposeState = 'ok' | 'read_only_table' | 'closed' | 'not_active' | 'none';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
/** One press message with its payload, as decoded by its shared schema (`PRESS_SERVER_SCHEMAS`). */
type PressDelivery = { [K in PressServerMessage]: { readonly type: K; readonly payload: PressServerMessages[K] } }[PressServerMessage];

/** Colours in seat order, without repeats. */
export function sortColours(cs: readonly Colour[]): Colour[] {
  return COLOURS.filter((c) => cs.includes(c));
}

/** The kind of a channel id (`table`, `spectators`, `dm:XY`, `group:XYZ…`), or null. */
export function channelKind(id: string): ChannelKind | null {
  if (id === TABLE) return 'table';
  if (id === SPECTATORS) return 'spectators';
  if (id.startsWith('dm:')) return 'private';
  if (id.startsWith('group:')) return 'group';
  return null;
}

/** Length as the server counts it: Unicode code points. */
export function charCount(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** A channel as the model holds it: `members` empty rather than null, its own messages only, by id. */
function toChannel(view: ChannelView): Mutable<Channel> {
  return { ...view, members: view.members ?? [], messages: sortById(view.messages.filter((m) => m.channel === view.id)) };
}

/** Messages by id, without repeats. */
function sortById(messages: readonly PressMessage[]): PressMessage[] {
  const byId = new Map<number, PressMessage>();
  for (const m of messages) if (!byId.has(m.id)) byId.set(m.id, m);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

/**
 * Adds older reveal messages of one channel to a timeline, keeping the order of the story
 * (turn, then time); a message of the same turn and time goes before the items already there.
 */
function mergeTimeline(timeline: readonly RevealItem[], older: readonly PressMessage[]): RevealItem[] {
  const out: RevealItem[] = [];
  let j = 0;
  for (const item of timeline) {
    while (j < older.length && (older[j].ply < item.ply || (older[j].ply === item.ply && older[j].at <= item.at))) out.push({ kind: 'message', ...older[j++] });
    out.push(item);
  }
  while (j < older.length) out.push({ kind: 'message', ...older[j++] });
  return out;
}

const betrayalKey = (b: Betrayal): string => `${b.pactId}|${b.traitor}|${b.victim}|${b.ply}`;

/** Group reveal items by the turn they came before or during (plies never decrease). */
export function groupByPly(items: readonly RevealItem[]): { ply: number; items: RevealItem[] }[] {
  const out: { ply: number; items: RevealItem[] }[] = [];
  for (const item of items) {
    const last = out[out.length - 1];
    if (last && last.ply === item.ply) last.items.push(item);
    else out.push({ ply: item.ply, items: [item] });
  }
  return out;
}

/** The negotiation state of one page. */
export class PressModel {
  private you: string | null = null;
  private role: PressHistory['role'] | null = null;
  private phaseSeen: PressPhase = 'waiting';
  private channelMap = new Map<string, Mutable<Channel>>();
  private existingList: ChannelExistence[] = [];
  private pactMap = new Map<string, PactView>();
  private betrayalList: Betrayal[] = [];
  private revealData: PressReveal | null = null;
  private noticeList: PactNotice[] = [];
  private alertList: Betrayal[] = [];
  private selectedTab: string = TABLE;
  private drafts = new Map<string, string>();
  private errorValue: PressError | null = null;
  private pendingOpen: string | null = null;
  private viewing = false;
  private lastSend: { channel: string; text: string } | null = null;
  /** Channels with a `press_page` on its way (one at a time per channel). */
  private pagesPending = new Set<string>();
  private seq = 0;
  private context: PressContext = { seat: null, active: [], phase: 'waiting' };
  private readonly listeners = new Set<() => void>();
  /** True once the server sent this member's history. */
  ready = false;

  /** Authors this viewer muted for itself (seat colours, `spectators`): their messages are hidden here only. */
  private mutedSet: Set<MuteTarget>;

  constructor(
    private readonly send: (type: string, payload: unknown) => void,
    private readonly mutes: MuteStore | null = null,
  ) {
    this.channelMap.set(TABLE, emptyChannel(TABLE, 'table'));
    const stored = mutes?.load() ?? [];
    this.mutedSet = new Set(stored.filter((t): t is MuteTarget => t === SPECTATORS || (COLOURS as readonly string[]).includes(t)));
  }

  // ---- muting (this viewer only: the server knows nothing of it) --------------------------------

  /** The authors muted, seats in seat order, then `spectators`. */
  get muted(): readonly MuteTarget[] {
    const seats: MuteTarget[] = COLOURS.filter((c) => this.mutedSet.has(c));
    return this.mutedSet.has(SPECTATORS) ? [...seats, SPECTATORS] : seats;
  }

  /** Whether `target` (a seat colour or `spectators`) is muted. */
  isMuted(target: MuteTarget): boolean {
    return this.mutedSet.has(target);
  }

  /** Hide `target`'s messages (never one's own seat); kept for this game. */
  mute(target: MuteTarget): void {
    if (this.mutedSet.has(target) || target === this.you) return;
    this.mutedSet.add(target);
    this.mutes?.save(this.muted);
    this.changed();
  }

  /** Show `target`'s messages again. */
  unmute(target: MuteTarget): void {
    if (!this.mutedSet.delete(target)) return;
    this.mutes?.save(this.muted);
    this.changed();
  }

  /** Whether a message is hidden: a muted author's, never one's own. */
  private hidden(m: PressMessage): boolean {
    return m.from !== this.you && this.mutedSet.size > 0 && this.mutedSet.has(muteTargetOf(m.from));
  }

  /** The muted authors with messages hidden in channel `id`, and how many each. */
  hiddenIn(id: string): { target: MuteTarget; count: number }[] {
    const ch = this.channelMap.get(id);
    if (!ch || this.mutedSet.size === 0) return [];
    const counts = new Map<MuteTarget, number>();
    for (const m of ch.messages) if (this.hidden(m)) counts.set(muteTargetOf(m.from), (counts.get(muteTargetOf(m.from)) ?? 0) + 1);
    return this.muted.filter((t) => counts.has(t)).map((target) => ({ target, count: counts.get(target)! }));
  }

  /** Be told after every change. Returns the unsubscribe function. */
  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  // ---- what the server says --------------------------------------------------------------------

  /** Take in a server press message, its payload already decoded with its shared schema (net/connection.ts). */
  receive<K extends PressServerMessage>(type: K, payload: PressServerMessages[K]): void {
    const d = { type, payload } as PressDelivery;
    switch (d.type) {
      case 'press_history':
        this.history(d.payload);
        break;
      case 'press_message':
        this.message(d.payload.message);
        break;
      case 'press_channel': {
        const ch = toChannel({ ...d.payload.channel, messages: [], more: false, readUpTo: 0, unread: 0 });
        if (!this.channelMap.has(ch.id)) this.channelMap.set(ch.id, ch);
        if (this.pendingOpen !== null && this.pendingOpen === ch.members.join('')) {
          this.pendingOpen = null;
          this.selectedTab = ch.id;
          if (this.errorValue?.area === 'open') this.errorValue = null;
        }
        break;
      }
      case 'press_exists': {
        const { channel, members } = d.payload;
        if (!this.existingList.some((e) => e.channel === channel)) this.existingList.push({ channel, members });
        break;
      }
      case 'press_unread': {
        const ch = this.channelMap.get(d.payload.channel);
        if (!ch) return;
        ch.readUpTo = Math.max(ch.readUpTo, d.payload.readUpTo);
        ch.unread = Math.max(0, d.payload.unread);
        break;
      }
      case 'pact': {
        const { pact, event, by } = d.payload;
        this.pactMap.set(pact.id, pact);
        this.noticeList = [...this.noticeList, { seq: ++this.seq, event, by, pact }].slice(-MAX_NOTICES);
        if (this.errorValue?.area === 'pact') this.errorValue = null;
        break;
      }
      case 'betrayal': {
        const { betrayal: b, pact } = d.payload;
        this.pactMap.set(pact.id, pact);
        if (!this.betrayalList.some((x) => betrayalKey(x) === betrayalKey(b))) {
          this.betrayalList.push(b);
          this.alertList.push(b);
        }
        break;
      }
      case 'draw':
        // Draw offers are public and mirrored in the room state; the page shows them from there.
        return;
      case 'press_page': {
        const { channel, before, more } = d.payload;
        this.pagesPending.delete(channel);
        this.page({ channel, before, more, messages: sortById(d.payload.messages.filter((m) => m.channel === channel && m.id < before)) });
        // Older messages change no unread count and need no read mark.
        this.changed();
        return;
      }
      case 'press_reveal': {
        const r = d.payload;
        this.revealData = r;
        this.phaseSeen = 'over';
        // Pacts end with the game without a message of their own: take their final state.
        for (const p of r.pacts) if (this.pactMap.has(p.id)) this.pactMap.set(p.id, p);
        this.selectedTab = REVEAL_TAB;
        break;
      }
    }
    this.markRead();
    this.changed();
  }

  /** A `rejected` message. Returns false if it belongs to another part of the page. */
  rejected(type: string, code: string, message: string, retryAfterMs?: number): boolean {
    if (!(PANEL_TYPES as readonly string[]).includes(type)) return false;
    if (type === 'press_open') this.pendingOpen = null;
    if (type === 'press_page') this.pagesPending.clear(); // the rejection does not name the channel
    if (type === 'press_send' && this.lastSend) {
      // Give the refused text back, unless something new was typed meanwhile.
      const { channel, text } = this.lastSend;
      if (!this.drafts.get(channel)) this.drafts.set(channel, text);
      this.lastSend = null;
    }
    const area: PressArea = type === 'press_open' ? 'open' : type.startsWith('pact_') ? 'pact' : 'chat';
    this.errorValue = { area, code, message, retryAfterMs: typeof retryAfterMs === 'number' ? retryAfterMs : null };
    this.changed();
    return true;
  }

  /** What the page knows of the room (seat, active players, phase). */
  setContext(ctx: PressContext): void {
    const c = this.context;
    if (c.seat === ctx.seat && c.phase === ctx.phase && c.active.join('') === ctx.active.join('')) return;
    this.context = { seat: ctx.seat, active: [...ctx.active], phase: ctx.phase };
    this.changed();
  }

  // ---- what the viewer does --------------------------------------------------------------------

  /** Show a tab (a channel id or `reveal`); marks the channel read if the panel is in view. */
  select(tab: string): void {
    if (tab !== REVEAL_TAB && !this.channelMap.has(tab)) return;
    if (tab === REVEAL_TAB && !this.revealData) return;
    this.selectedTab = tab;
    if (this.errorValue?.area === 'chat') this.errorValue = null;
    this.markRead();
    this.changed();
  }

  /** Whether the panel is on screen and the page visible: only then is a channel read. */
  setViewing(on: boolean): void {
    if (this.viewing === on) return;
    this.viewing = on;
    if (this.markRead()) this.changed();
  }

  /** The text being typed in the selected channel. */
  setDraft(text: string): void {
    this.drafts.set(this.selectedTab, text);
    this.changed();
  }

  /** Send the draft of the selected channel. Returns false when there is nothing to send. */
  sendDraft(): boolean {
    const channel = this.selectedTab;
    const text = this.drafts.get(channel) ?? '';
    if (!this.channelMap.has(channel) || text.trim() === '' || charCount(text) > MAX_MESSAGE_CHARS) return false;
    this.lastSend = { channel, text };
    this.drafts.set(channel, '');
    if (this.errorValue?.area === 'chat') this.errorValue = null;
    this.send('press_send', { channel, text });
    this.changed();
    return true;
  }

  /**
   * Talk with these seats (private with one, a group with several): shows their channel if it
   * is known, otherwise asks the server to open it and shows it when it arrives.
   */
  openWith(seats: readonly Colour[]): void {
    const me = this.context.seat;
    if (!me) return;
    const members = sortColours([...seats, me]);
    if (members.length < 2) return;
    const known = [...this.channelMap.values()].find((c) => (c.kind === 'private' || c.kind === 'group') && c.members.join('') === members.join(''));
    if (known) {
      this.select(known.id);
      return;
    }
    this.pendingOpen = members.join('');
    if (this.errorValue?.area === 'open') this.errorValue = null;
    this.send('press_open', { members: sortColours(seats.filter((c) => c !== me)) });
    this.changed();
  }

  /** Propose a non-aggression pact. */
  propose(seats: readonly Colour[], rounds: number | null, announce: boolean): void {
    const payload: Record<string, unknown> = { with: sortColours(seats) };
    if (rounds !== null) payload.rounds = rounds;
    if (announce) payload.announce = true;
    this.send('pact_propose', payload);
  }

  /** Accept an invitation. */
  accept(pact: string): void {
    this.send('pact_accept', { pact });
  }

  /** Decline an invitation, or withdraw a pending proposal. */
  decline(pact: string): void {
    this.send('pact_decline', { pact });
  }

  /** Leave a pact in force, openly. */
  leave(pact: string): void {
    this.send('pact_leave', { pact });
  }

  /**
   * Ask for the page of messages before the oldest one held in a channel (the panel's "Load
   * older messages"). Returns false when there is nothing older or a page is on its way.
   */
  loadOlder(id: string): boolean {
    const ch = this.channelMap.get(id);
    if (!ch?.more || ch.messages.length === 0 || this.pagesPending.has(id)) return false;
    return this.askPage(id, ch.messages[0].id);
  }

  /** Like `loadOlder`, for a channel of the after-game reveal (possibly one this viewer was not in). */
  loadOlderRevealed(id: string): boolean {
    const oldest = this.revealOldest(id);
    if (!this.revealHasOlder(id) || oldest === null || this.pagesPending.has(id)) return false;
    return this.askPage(id, oldest);
  }

  /** Put away the betrayal alerts. */
  dismissAlerts(): void {
    if (this.alertList.length === 0) return;
    this.alertList = [];
    this.changed();
  }

  /** Put away the inline rejection. */
  clearError(): void {
    if (!this.errorValue) return;
    this.errorValue = null;
    this.changed();
  }

  // ---- views -----------------------------------------------------------------------------------

  /** This member's id (a colour or a spectator id), once the history came. */
  get me(): string | null {
    return this.you;
  }

  /** The selected tab. */
  get selected(): string {
    return this.selectedTab;
  }

  /** The inline rejection, if any. */
  get error(): PressError | null {
    return this.errorValue;
  }

  /** Betrayals received live and not yet put away. */
  get alerts(): readonly Betrayal[] {
    return this.alertList;
  }

  /** Recent live pact events, oldest first. */
  get notices(): readonly PactNotice[] {
    return this.noticeList;
  }

  /** Every betrayal this viewer may see. */
  get betrayals(): readonly Betrayal[] {
    return this.betrayalList;
  }

  /** The after-game reveal, once the game is over. */
  get reveal(): PressReveal | null {
    return this.revealData;
  }

  /** Channels whose existence was announced (`press_visibility: existence`). */
  get existing(): readonly ChannelExistence[] {
    return this.existingList;
  }

  /** True while a `press_open` waits for its channel. */
  get opening(): boolean {
    return this.pendingOpen !== null;
  }

  /** A channel by id. */
  channel(id: string): Channel | undefined {
    return this.channelMap.get(id);
  }

  /** True when the server holds older messages of a channel than the ones shown. */
  hasOlder(id: string): boolean {
    return this.channelMap.get(id)?.more === true;
  }

  /** True while a page of older messages of a channel is on its way. */
  loadingOlder(id: string): boolean {
    return this.pagesPending.has(id);
  }

  /** True when the reveal's timeline left out older messages of a revealed channel. */
  revealHasOlder(id: string): boolean {
    return this.revealData?.channels.some((c) => c.id === id && c.more) === true;
  }

  /** Revealed channels with older messages to load, in the reveal's order. */
  revealOlder(): string[] {
    return this.revealData ? this.revealData.channels.filter((c) => c.more).map((c) => c.id) : [];
  }

  /** A pact by id. */
  pact(id: string): PactView | undefined {
    return this.pactMap.get(id) ?? this.revealData?.pacts.find((p) => p.id === id);
  }

  /** The tabs in order: table, spectators, private and group channels as opened, the reveal. */
  tabs(): PressTab[] {
    const me = this.context.seat;
    const rank: Record<ChannelKind, number> = { table: 0, spectators: 1, private: 2, group: 2 };
    const channels = [...this.channelMap.values()].sort((a, b) => rank[a.kind] - rank[b.kind]);
    const tabs: PressTab[] = channels.map((c) => ({ id: c.id, kind: c.kind, others: c.members.filter((m) => m !== me), unread: c.unread }));
    if (this.revealData) tabs.push({ id: REVEAL_TAB, kind: 'reveal', others: [], unread: 0 });
    return tabs;
  }

  /** Unread messages in every channel. */
  get totalUnread(): number {
    let n = 0;
    for (const c of this.channelMap.values()) n += c.unread;
    return n;
  }

  /** The draft of the selected channel, its length in code points and whether it is too long. */
  draft(): { text: string; count: number; over: boolean } {
    const text = this.drafts.get(this.selectedTab) ?? '';
    const count = charCount(text);
    return { text, count, over: count > MAX_MESSAGE_CHARS };
  }

  /** Whether to offer a message box in a channel (the server still decides). */
  compose(id: string): ComposeState {
    const ch = this.channelMap.get(id);
    if (!ch || !this.ready) return 'none';
    const { seat, active, phase } = this.context;
    // The server's own permission (shared); having the spectators tab means reading it.
    const verdict = mayWrite(
      ch.kind,
      { seat: seat !== null, readsSpectators: ch.kind === 'spectators', active: seat !== null && active.includes(seat) },
      phase,
    );
    if (verdict === 'ok') return 'ok';
    if (ch.kind === 'table') return 'read_only_table';
    return verdict === 'not_active' ? 'not_active' : 'closed';
  }

  /** Seats this viewer may start a conversation or a pact with: the other active seats, during the game. */
  partners(): Colour[] {
    const { seat, active, phase } = this.context;
    if (!seat || phase !== 'playing' || !active.includes(seat) || !this.ready) return [];
    return active.filter((c) => c !== seat);
  }

  /** The lines of a channel: its messages (but muted authors') and, on the table, announced pacts and betrayals. */
  feed(id: string): FeedItem[] {
    const ch = this.channelMap.get(id);
    if (!ch) return [];
    const shown = this.mutedSet.size === 0 ? ch.messages : ch.messages.filter((m) => !this.hidden(m));
    const keyed: { key: [number, number, number, number]; item: FeedItem }[] = shown.map((m) => ({
      key: [m.ply, 0, m.at, m.id],
      item: { kind: 'message', message: m, mine: m.from === this.you },
    }));
    if (ch.kind === 'table') {
      const announced = [...this.pactMap.values()].filter((p) => p.announced);
      for (const p of announced) {
        if (p.inForcePly !== null) keyed.push({ key: [p.inForcePly, 1, 0, 0], item: { kind: 'pact', pact: p, event: 'in_force' } });
        if (p.status === 'ended' && p.endedPly !== null && p.inForcePly !== null && p.endReason !== 'game_over') {
          keyed.push({ key: [p.endedPly, p.endReason === 'betrayed' ? 3 : 1, 0, 1], item: { kind: 'pact', pact: p, event: 'ended' } });
        }
      }
      const ids = new Set(announced.map((p) => p.id));
      for (const b of this.betrayalList) if (ids.has(b.pactId)) keyed.push({ key: [b.ply, 2, b.at, 0], item: { kind: 'betrayal', betrayal: b } });
    }
    keyed.sort((a, b) => a.key[0] - b.key[0] || a.key[1] - b.key[1] || a.key[2] - b.key[2] || a.key[3] - b.key[3]);
    return keyed.map((k) => k.item);
  }

  /** The pacts this viewer sees, sorted for the panel. */
  pactGroups(): PactGroups {
    const me = this.context.seat;
    const all = [...this.pactMap.values()];
    const mine = (p: PactView): boolean => !!me && p.members.includes(me);
    return {
      invitations: all.filter((p) => p.status === 'proposed' && mine(p) && !p.accepted.includes(me!)),
      waiting: all.filter((p) => p.status === 'proposed' && mine(p) && p.accepted.includes(me!)),
      inForce: all.filter((p) => p.status === 'in_force'),
      ended: all.filter((p) => p.status === 'ended'),
    };
  }

  // ---- internals -------------------------------------------------------------------------------

  private history(p: PressHistory): void {
    this.you = p.you || null;
    this.role = p.role;
    this.phaseSeen = p.phase;
    const channels = new Map(p.channels.map((c) => [c.id, toChannel(c)]));
    if (!channels.has(TABLE)) channels.set(TABLE, emptyChannel(TABLE, 'table'));
    this.channelMap = channels;
    this.existingList = [...p.existing];
    this.pactMap = new Map(p.pacts.map((x) => [x.id, x]));
    this.betrayalList = [...p.betrayals];
    // Alerts stay only for betrayals still visible; the history itself raises none.
    const keys = new Set(this.betrayalList.map(betrayalKey));
    this.alertList = this.alertList.filter((b) => keys.has(betrayalKey(b)));
    this.noticeList = this.noticeList.filter((n) => this.pactMap.has(n.pact.id));
    this.revealData = p.reveal;
    if (!this.channelMap.has(this.selectedTab) && !(this.selectedTab === REVEAL_TAB && this.revealData)) this.selectedTab = TABLE;
    this.pendingOpen = null;
    this.lastSend = null;
    this.pagesPending.clear();
    this.ready = true;
  }

  private askPage(channel: string, before: number): boolean {
    this.pagesPending.add(channel);
    if (this.errorValue?.area === 'chat') this.errorValue = null;
    this.send('press_page', { channel, before, limit: PAGE_MESSAGES });
    this.changed();
    return true;
  }

  /** The lowest message id of a channel in the reveal's timeline, or null. */
  private revealOldest(id: string): number | null {
    let oldest: number | null = null;
    for (const item of this.revealData?.timeline ?? [])
      if (item.kind === 'message' && item.channel === id && (oldest === null || item.id < oldest)) oldest = item.id;
    return oldest;
  }

  /**
   * Merges a page of older messages into the channel and into the reveal, wherever it joins on to
   * what is held (its `before` is at or above the oldest message held there): no repeats, unread
   * counts and read marks unchanged.
   */
  private page(p: { channel: string; before: number; messages: PressMessage[]; more: boolean }): void {
    const ch = this.channelMap.get(p.channel);
    if (ch && ch.messages.length > 0 && p.before >= ch.messages[0].id) {
      const oldest = ch.messages[0].id;
      const older = p.messages.filter((m) => m.id < oldest);
      ch.messages = [...older, ...ch.messages];
      if (older.length > 0 || p.messages.length === 0 || p.messages[0].id <= oldest) ch.more = p.messages.length > 0 && p.more;
    }
    const reveal = this.revealData;
    const oldest = this.revealOldest(p.channel);
    if (reveal && oldest !== null && p.before >= oldest && reveal.channels.some((c) => c.id === p.channel)) {
      const older = p.messages.filter((m) => m.id < oldest);
      const more = p.messages.length > 0 && p.more;
      const settles = older.length > 0 || p.messages.length === 0 || p.messages[0].id <= oldest;
      this.revealData = {
        ...reveal,
        channels: reveal.channels.map((c) => (c.id === p.channel && settles ? { ...c, more } : c)),
        timeline: older.length > 0 ? mergeTimeline(reveal.timeline, older) : reveal.timeline,
      };
    }
  }

  private message(m: PressMessage): void {
    let ch = this.channelMap.get(m.channel);
    if (!ch) {
      const kind = channelKind(m.channel);
      if (!kind) return;
      ch = emptyChannel(m.channel, kind);
      // The id names the members (`dm:RB`, `group:RYG`); sortColours keeps only real colours.
      if (kind === 'private' || kind === 'group') ch.members = sortColours([...m.channel.slice(m.channel.indexOf(':') + 1)] as Colour[]);
      this.channelMap.set(m.channel, ch);
    }
    if (ch.messages.some((x) => x.id === m.id)) return;
    ch.messages = [...ch.messages, m].sort((a, b) => a.id - b.id);
    if (m.from === this.you) {
      if (this.lastSend?.channel === m.channel) this.lastSend = null;
      if (this.errorValue?.area === 'chat') this.errorValue = null;
    } else if (m.id > ch.readUpTo) {
      ch.unread++;
    }
  }

  /** Mark the selected channel read up to its last message, if it is in view and has unread messages. */
  private markRead(): boolean {
    if (!this.viewing) return false;
    const ch = this.channelMap.get(this.selectedTab);
    if (!ch || ch.unread === 0 || ch.messages.length === 0) return false;
    const last = ch.messages[ch.messages.length - 1].id;
    ch.readUpTo = Math.max(ch.readUpTo, last);
    ch.unread = 0;
    this.send('press_read', { channel: ch.id, upTo: last });
    return true;
  }

  private changed(): void {
    for (const fn of this.listeners) fn();
  }

  /** Debug summary (the page's test hook). */
  summary(): {
    ready: boolean;
    me: string | null;
    role: string | null;
    phase: string;
    tabs: string[];
    unread: Record<string, number>;
    pacts: number;
    betrayals: number;
    reveal: boolean;
  } {
    const unread: Record<string, number> = {};
    for (const c of this.channelMap.values()) unread[c.id] = c.unread;
    return {
      ready: this.ready,
      me: this.you,
      role: this.role,
      phase: this.phaseSeen,
      tabs: this.tabs().map((t) => t.id),
      unread,
      pacts: this.pactMap.size,
      betrayals: this.betrayalList.length,
      reveal: this.revealData !== null,
    };
  }
}

function emptyChannel(id: string, kind: ChannelKind): Mutable<Channel> {
  return { id, kind, members: [], openedBy: null, ply: 0, messages: [], more: false, readUpTo: 0, unread: 0 };
}
