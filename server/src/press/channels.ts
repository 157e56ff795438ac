/**
 * Press channels of one room: `table`, `spectators`, private (two seats) and group (three or
 * more seats) channels, their history for the life of the game (the latest
 * `MAX_MESSAGES_PER_CHANNEL` of each), how many messages each author key posted in each, and
 * each member's read state. Every accepted action returns the deliveries to send; who may see
 * what is decided here. Histories and pages are sent in bounded slices (`HISTORY_MESSAGES`,
 * `press_page`).
 */
import { COLOURS, type Colour, HISTORY_MESSAGES, mayWrite, PAGE_MESSAGES } from '@djambi/shared';
import type { RateLimiter } from './rateLimit.js';
import type { Roster } from './roster.js';
import { accepted, cleanText, refuse } from './text.js';
import type {
  ChannelExistence,
  ChannelId,
  ChannelInfo,
  ChannelKind,
  ChannelView,
  Delivery,
  MemberId,
  PressClientPayload,
  PressMessage,
  PressPage,
  PressRejection,
  PressResult,
  PressRoomOptions,
  RevealChannel,
  RevealItem,
} from './types.js';

/** The channel every seat writes on and everyone reads. */
export const TABLE: ChannelId = 'table';
/** The channel of spectators and eliminated players. */
export const SPECTATORS: ChannelId = 'spectators';
/**
 * Messages kept in memory per channel. Past this a channel forgets its oldest message for each
 * new one: it never refuses anyone. Only `spectators` can get there (its authors are not
 * bounded); on the other channels the seats' author cap keeps it out of reach.
 */
export const MAX_MESSAGES_PER_CHANNEL = 10000;
/** Messages one author key (a spectator's address, or a seat) may post in `spectators` in one game (`author_limit`). */
export const AUTHOR_CAP_SPECTATORS = 300;
/**
 * Messages one seat may post in `table`, or in one private or group channel, in one game
 * (`author_limit`). Four seats × 2000 stays under `MAX_MESSAGES_PER_CHANNEL`: these channels
 * never forget a message.
 */
export const AUTHOR_CAP_SEATS = 2000;

/** The author cap of a channel kind. */
export function authorCapOf(kind: ChannelKind): number {
  return kind === 'spectators' ? AUTHOR_CAP_SPECTATORS : AUTHOR_CAP_SEATS;
}

interface Channel {
  readonly info: ChannelInfo;
  /** The kept messages, oldest first; their ids are contiguous and end at `lastId`. */
  readonly messages: PressMessage[];
  /** Room-wide order of each message (same index as `messages`), for the reveal only. */
  readonly seqs: number[];
  /** Id of the latest message (0: none yet); ids keep counting when old messages are forgotten. */
  lastId: number;
  /** Messages posted per author key, for the whole game (forgotten messages included). */
  readonly authors: Map<string, number>;
  /** Room-wide order of the opening (0 for the built-in channels). */
  readonly seq: number;
  readonly at: number;
}

/** A new, empty channel. */
function newChannel(info: ChannelInfo, seq: number, at: number): Channel {
  return { info, messages: [], seqs: [], lastId: 0, authors: new Map(), seq, at };
}

/** Index in `channel.messages` of the first kept message whose id is above `id`. */
function indexAfter(channel: Channel, id: number): number {
  const first = channel.messages.length > 0 ? channel.messages[0].id : channel.lastId + 1;
  return Math.min(channel.messages.length, Math.max(0, id - first + 1));
}

/** The canonical id of the channel of a set of seats (two: `dm:XY`, more: `group:XYZ`). */
export function channelIdOf(members: readonly Colour[]): ChannelId {
  const set = COLOURS.filter((c) => members.includes(c));
  return `${set.length === 2 ? 'dm' : 'group'}:${set.join('')}`;
}

/** Reads a channel id: its kind and, for private and group channels, its members; null if not canonical. */
export function parseChannelId(id: string, seats: readonly Colour[]): { kind: ChannelKind; members: Colour[] | null } | null {
  if (id === TABLE) return { kind: 'table', members: null };
  if (id === SPECTATORS) return { kind: 'spectators', members: null };
  const m = /^(dm|group):([RBYGPW]{2,6})$/.exec(id);
  if (!m) return null;
  const members = [...m[2]] as Colour[];
  if (!members.every((c) => seats.includes(c))) return null;
  if (channelIdOf(members) !== id) return null; // duplicates, wrong order, or dm/group mismatch
  return { kind: members.length === 2 ? 'private' : 'group', members };
}

/** The channels of one room. */
export class Channels {
  private readonly byId = new Map<ChannelId, Channel>();
  /** Highest message id read, per member and channel. */
  private readonly reads = new Map<MemberId, Map<ChannelId, number>>();

  constructor(
    private readonly roster: Roster,
    private readonly options: PressRoomOptions,
    private readonly limiter: RateLimiter,
    private readonly pageLimiter: RateLimiter,
  ) {
    for (const [id, kind] of [
      [TABLE, 'table'],
      [SPECTATORS, 'spectators'],
    ] as const) {
      this.byId.set(id, newChannel({ id, kind, members: null, openedBy: null, ply: 0 }, 0, 0));
    }
  }

  /** `press_send { channel, text }` (its shape checked by `Press.handle`): posts a message. */
  send(member: MemberId, p: PressClientPayload<'press_send'>, now: number): PressResult {
    if (!this.roster.isKnown(member)) return refuse('unknown_member', 'you are not in this room');
    const target = this.writable(member, p.channel);
    if (!target.ok) return target;
    const channel = target.channel;
    const text = cleanText(p.text);
    if (!text.ok) return text;
    const key = this.roster.limitKeyOf(member);
    const posted = channel.authors.get(key) ?? 0;
    const cap = authorCapOf(channel.info.kind);
    if (posted >= cap) return refuse('author_limit', `one author may post at most ${cap} messages in this channel in a game`);
    const wait = this.limiter.wait(key, now);
    if (wait > 0) return refuse('rate_limited', `too many messages: wait ${wait} ms`, wait);

    this.limiter.take(key, now);
    channel.authors.set(key, posted + 1);
    const name = this.roster.isSeat(member) ? undefined : this.roster.spectatorName(member);
    const message: PressMessage = {
      id: ++channel.lastId,
      channel: channel.info.id,
      from: member,
      ...(name ? { name } : {}),
      text: text.text,
      ply: this.roster.ply,
      at: now,
    };
    channel.messages.push(message);
    channel.seqs.push(this.roster.nextSeq());
    if (channel.messages.length > MAX_MESSAGES_PER_CHANNEL) {
      channel.messages.shift();
      channel.seqs.shift();
    }
    return accepted([{ to: this.audience(channel), type: 'press_message', payload: { message } }]);
  }

  /** `press_open { members }`: opens the private or group channel of the sender and `members` (idempotent). */
  open(member: MemberId, p: PressClientPayload<'press_open'>, now: number): PressResult {
    const list: readonly string[] = p.members;
    if (!this.roster.isKnown(member)) return refuse('unknown_member', 'you are not in this room');
    if (!this.roster.isSeat(member)) return refuse('not_seated', 'only seated players open channels');
    const bad = list.find((c) => !this.roster.isSeat(c));
    if (bad !== undefined) return refuse('bad_members', `"${String(bad).slice(0, 8)}" is not a seat of this game`);
    const members = COLOURS.filter((c) => c === member || list.includes(c));
    if (members.length < 2) return refuse('bad_members', 'a channel needs at least one other seat');
    const phase = this.phaseCheck();
    if (phase) return phase;
    if (!this.roster.isActive(member)) return refuse('not_active', 'you are no longer in the game');
    const out = members.find((c) => !this.roster.isActive(c));
    if (out) return refuse('not_active', `${out} is no longer in the game`);

    const id = channelIdOf(members);
    const existing = this.byId.get(id);
    if (existing) return accepted([{ to: [member], type: 'press_channel', payload: { channel: existing.info } }]);
    const key = this.roster.limitKeyOf(member);
    const wait = this.limiter.wait(key, now);
    if (wait > 0) return refuse('rate_limited', `too many actions: wait ${wait} ms`, wait);

    this.limiter.take(key, now);
    const info: ChannelInfo = { id, kind: members.length === 2 ? 'private' : 'group', members, openedBy: member, ply: this.roster.ply };
    this.byId.set(id, newChannel(info, this.roster.nextSeq(), now));
    const deliveries: Delivery[] = [{ to: members, type: 'press_channel', payload: { channel: info } }];
    if (this.options.press_visibility === 'existence') {
      const others = this.roster.everyone().filter((m) => !(members as readonly MemberId[]).includes(m));
      deliveries.push({ to: others, type: 'press_exists', payload: { channel: id, members } });
    }
    return accepted(deliveries);
  }

  /** `press_read { channel, upTo }`: marks messages up to id `upTo` as read for `member`. */
  markRead(member: MemberId, p: PressClientPayload<'press_read'>): PressResult {
    const { channel: id, upTo: upToId } = p;
    if (!this.roster.isKnown(member)) return refuse('unknown_member', 'you are not in this room');
    const target = this.readable(member, id);
    if (!target.ok) return target;
    const channel = target.channel;
    const reads = this.readsOf(member);
    const upTo = Math.max(reads.get(id) ?? 0, Math.min(upToId, channel.lastId));
    reads.set(id, upTo);
    return accepted([{ to: [member], type: 'press_unread', payload: { channel: id, readUpTo: upTo, unread: this.unread(member, channel) } }]);
  }

  /** Unread messages of `member` in channel `id` (0 when it may not read it). */
  unreadCount(member: MemberId, id: ChannelId): number {
    const t = this.readable(member, id);
    return t.ok ? this.unread(member, t.channel) : 0;
  }

  /**
   * `press_page { channel, before, limit? }`: up to `limit` (default `PAGE_MESSAGES`, at most
   * `MAX_PAGE_MESSAGES`) messages older than id `before`, to the sender only. The permission is
   * the history's: the channels `member` may read now, and after the game every revealed one.
   */
  page(member: MemberId, p: PressClientPayload<'press_page'>, now: number): PressResult {
    const { channel: id, before } = p;
    const limit = p.limit ?? PAGE_MESSAGES;
    if (!this.roster.isKnown(member)) return refuse('unknown_member', 'you are not in this room');
    const target = this.pageable(member, id);
    if (!target.ok) return target;
    const key = this.roster.limitKeyOf(member);
    const wait = this.pageLimiter.wait(key, now);
    if (wait > 0) return refuse('rate_limited', `too many pages: wait ${wait} ms`, wait);

    this.pageLimiter.take(key, now);
    const channel = target.channel;
    const end = indexAfter(channel, before - 1);
    const start = Math.max(0, end - limit);
    const page = { channel: id, before, messages: channel.messages.slice(start, end), more: start > 0 };
    return accepted([{ to: [member], type: 'press_page', payload: page }]);
  }

  /** The channels `member` may read now, with their latest `HISTORY_MESSAGES` messages and read state. */
  viewsFor(member: MemberId): ChannelView[] {
    const out: ChannelView[] = [];
    for (const channel of this.byId.values()) {
      if (!this.canRead(member, channel)) continue;
      const from = Math.max(0, channel.messages.length - HISTORY_MESSAGES);
      out.push({
        ...channel.info,
        messages: channel.messages.slice(from),
        more: from > 0,
        readUpTo: this.reads.get(member)?.get(channel.info.id) ?? 0,
        unread: this.unread(member, channel),
      });
    }
    return out;
  }

  /** Messages `key` has posted in channel `id` in this game (0 for an unknown channel). */
  postedBy(key: string, id: ChannelId): number {
    return this.byId.get(id)?.authors.get(key) ?? 0;
  }

  /** With `press_visibility: 'existence'`, the private and group channels `member` is not in. */
  existenceFor(member: MemberId): ChannelExistence[] {
    if (this.options.press_visibility !== 'existence') return [];
    const out: ChannelExistence[] = [];
    for (const c of this.byId.values()) {
      if (c.info.members && !(c.info.members as readonly MemberId[]).includes(member)) out.push({ channel: c.info.id, members: c.info.members });
    }
    return out;
  }

  /** Forgets a spectator's read state. */
  forget(member: MemberId): void {
    this.reads.delete(member);
  }

  /**
   * The after-game story of the channels: channel infos and timeline items with their order.
   * Table always; private, group and spectator talk only when `conversations`. Each channel
   * brings its latest `HISTORY_MESSAGES` messages; `more` tells that older ones can be paged.
   */
  revealItems(conversations: boolean): { channels: RevealChannel[]; items: { seq: number; item: RevealItem }[] } {
    const channels: RevealChannel[] = [];
    const items: { seq: number; item: RevealItem }[] = [];
    for (const c of this.byId.values()) {
      if (c.info.kind !== 'table' && !conversations) continue;
      const from = Math.max(0, c.messages.length - HISTORY_MESSAGES);
      channels.push({ ...c.info, more: from > 0 });
      if (c.info.members && c.info.openedBy) {
        items.push({ seq: c.seq, item: { kind: 'channel', channel: c.info.id, members: c.info.members, by: c.info.openedBy, ply: c.info.ply, at: c.at } });
      }
      for (let i = from; i < c.messages.length; i++) items.push({ seq: c.seqs[i], item: { kind: 'message', ...c.messages[i] } });
    }
    return { channels, items };
  }

  /**
   * A page of a revealed channel for the archive (`GET /api/games/CODE/reveal?channel=`): up to
   * `limit` kept messages of `id` older than `before` (absent: the latest), oldest first. Only
   * the channels of the reveal (`revealItems(conversations)`); any other id, existing or not,
   * answers `no_such_channel`, so a hidden conversation's existence is not told.
   */
  revealPage(
    id: string,
    before: number | undefined,
    limit: number,
    conversations: boolean,
  ): { ok: true; page: PressPage } | { ok: false; error: PressRejection } {
    const channel = parseChannelId(id, this.roster.seats) ? this.byId.get(id) : undefined;
    if (!channel || (channel.info.kind !== 'table' && !conversations)) return refuse('no_such_channel', 'not a revealed channel of this game');
    const from = before ?? channel.lastId + 1;
    const end = indexAfter(channel, from - 1);
    const start = Math.max(0, end - limit);
    return { ok: true, page: { channel: id, before: from, messages: channel.messages.slice(start, end), more: start > 0 } };
  }

  // ---- access rules ----------------------------------------------------------------------------

  /** Who receives the messages of a channel now. */
  private audience(channel: Channel): MemberId[] {
    switch (channel.info.kind) {
      case 'table':
        return this.roster.everyone();
      case 'spectators':
        return this.roster.everyone().filter((m) => this.readsSpectators(m));
      default:
        return [...(channel.info.members ?? [])];
    }
  }

  private canRead(member: MemberId, channel: Channel): boolean {
    switch (channel.info.kind) {
      case 'table':
        return this.roster.isKnown(member);
      case 'spectators':
        return this.readsSpectators(member);
      default:
        return (channel.info.members as readonly MemberId[]).includes(member);
    }
  }

  /** Spectators and eliminated players; after the game everyone when conversations are revealed. */
  private readsSpectators(member: MemberId): boolean {
    if (!this.roster.isKnown(member)) return false;
    if (this.roster.phase === 'over' && this.options.reveal_press_after_game) return true;
    return this.roster.isSpectator(member) || (this.roster.phase !== 'waiting' && this.roster.isEliminated(member));
  }

  /** The channel `member` may read, or the rejection (a non-member learns nothing of existence). */
  private readable(member: MemberId, id: ChannelId): { ok: true; channel: Channel } | { ok: false; error: PressRejection } {
    const parsed = parseChannelId(id, this.roster.seats);
    if (!parsed) return refuse('no_such_channel', 'no such channel');
    if (parsed.members && !(parsed.members as readonly MemberId[]).includes(member)) return refuse('not_member', 'you are not a member of this channel');
    const channel = this.byId.get(id);
    if (!channel) return refuse('no_such_channel', 'no such channel: open it first');
    if (!this.canRead(member, channel)) return refuse('not_allowed', 'you may not read this channel now');
    return { ok: true, channel };
  }

  /**
   * The channel `member` may page: one it may read now; after the game with
   * `reveal_press_after_game`, every channel (all of them are in the reveal).
   */
  private pageable(member: MemberId, id: ChannelId): { ok: true; channel: Channel } | { ok: false; error: PressRejection } {
    if (this.roster.phase !== 'over' || !this.options.reveal_press_after_game) return this.readable(member, id);
    const channel = parseChannelId(id, this.roster.seats) ? this.byId.get(id) : undefined;
    if (!channel) return refuse('no_such_channel', 'no such channel');
    return { ok: true, channel };
  }

  /** The channel `member` may write on now, or the rejection (the permission is the shared `mayWrite`). */
  private writable(member: MemberId, id: ChannelId): { ok: true; channel: Channel } | { ok: false; error: PressRejection } {
    const parsed = parseChannelId(id, this.roster.seats);
    if (!parsed) return refuse('no_such_channel', 'no such channel');
    const seat = this.roster.isSeat(member);
    const writer = { seat, readsSpectators: this.readsSpectators(member), active: seat && this.roster.isActive(member as Colour) };
    const verdict = mayWrite(parsed.kind, writer, this.roster.phase);
    if (parsed.kind === 'table' || parsed.kind === 'spectators') {
      if (verdict !== 'ok')
        return refuse(
          'not_allowed',
          parsed.kind === 'table' ? 'spectators read the table but do not write on it' : 'players in the game may not use the spectators channel',
        );
      return { ok: true, channel: this.byId.get(parsed.kind === 'table' ? TABLE : SPECTATORS)! };
    }
    if (!(parsed.members as readonly MemberId[]).includes(member)) return refuse('not_member', 'you are not a member of this channel');
    if (verdict === 'game_not_started') return refuse('game_not_started', 'private and group channels open when the game starts');
    if (verdict === 'game_over') return refuse('game_over', 'the game is over: private and group channels are closed');
    const channel = this.byId.get(id);
    if (!channel) return refuse('no_such_channel', 'no such channel: open it first');
    if (verdict === 'not_active') return refuse('not_active', 'eliminated players read their channels but write only on table and spectators');
    return { ok: true, channel };
  }

  /** Private and group channels exist only during the game. */
  private phaseCheck(): { ok: false; error: PressRejection } | null {
    if (this.roster.phase === 'waiting') return refuse('game_not_started', 'private and group channels open when the game starts');
    if (this.roster.phase === 'over') return refuse('game_over', 'the game is over: private and group channels are closed');
    return null;
  }

  private readsOf(member: MemberId): Map<ChannelId, number> {
    let m = this.reads.get(member);
    if (!m) {
      m = new Map();
      this.reads.set(member, m);
    }
    return m;
  }

  private unread(member: MemberId, channel: Channel): number {
    const from = indexAfter(channel, this.reads.get(member)?.get(channel.info.id) ?? 0);
    let n = 0;
    for (let i = from; i < channel.messages.length; i++) if (channel.messages[i].from !== member) n++;
    return n;
  }
}
