/**
 * The client's negotiation model without a browser: payloads as docs/PRESS.md describes them,
 * then the model wired to the server's own `Press` (as the room wires it), one model per member.
 */
import {
  check,
  initialPosition,
  MAX_MESSAGE_CHARS,
  PRESS_SERVER_MESSAGES,
  PRESS_SERVER_SCHEMAS,
  playTurn,
  type Colour,
  type Position,
  type PressServerMessage,
  type PressServerMessages,
} from '@djambi/shared';
import { PressModel, REVEAL_TAB, channelKind, charCount, groupByPly, type PressContext } from '../../client/src/game/press.js';
import { Press, type Delivery } from '../../server/src/press/index.js';
import { findTurn, position } from '../press/helpers.js';

type Sent = { type: string; payload: unknown };

/**
 * Hands a server message to the model as the page does: decoded with its shared schema first
 * (net/connection.ts), so junk is dropped before the model. True when the model took it.
 */
function receive(m: PressModel, type: string, payload: unknown): boolean {
  if (!(PRESS_SERVER_MESSAGES as readonly string[]).includes(type)) return false;
  const t = type as PressServerMessage;
  const decoded = check(PRESS_SERVER_SCHEMAS[t], payload);
  if (decoded.ok) m.receive(t, decoded.value as PressServerMessages[typeof t]);
  return decoded.ok;
}

function model(ctx: Partial<PressContext> = {}): { m: PressModel; sent: Sent[] } {
  const sent: Sent[] = [];
  const m = new PressModel((type, payload) => sent.push({ type, payload }));
  m.setContext({ seat: 'R', active: ['R', 'B', 'Y', 'G'], phase: 'playing', ...ctx });
  return { m, sent };
}

const msg = (channel: string, id: number, from: string, text = `m${id}`, ply = 0) => ({ message: { id, channel, from, text, ply, at: 1000 + id } });

const pactView = (over: Record<string, unknown> = {}) => ({
  id: 'p1',
  proposer: 'R',
  members: ['R', 'B'],
  rounds: null,
  announced: false,
  status: 'proposed',
  accepted: ['R'],
  standing: [],
  turnsLeft: null,
  roundsLeft: null,
  broken: false,
  proposedPly: 2,
  inForcePly: null,
  endedPly: null,
  endReason: null,
  ...over,
});

/** A channel as `press_history` sends it, empty unless `over` says otherwise. */
const view = (id: string, kind: string, members: string[] | null, over: Record<string, unknown> = {}) => ({
  id,
  kind,
  members,
  openedBy: members ? members[0] : null,
  ply: 0,
  messages: [],
  more: false,
  readUpTo: 0,
  unread: 0,
  ...over,
});

function history(over: Record<string, unknown> = {}) {
  return {
    you: 'R',
    role: 'player',
    phase: 'playing',
    visibility: 'hidden',
    channels: [
      {
        id: 'table',
        kind: 'table',
        members: null,
        openedBy: null,
        ply: 0,
        messages: [msg('table', 1, 'B').message, msg('table', 2, 'R').message],
        more: false,
        readUpTo: 0,
        unread: 1,
      },
      {
        id: 'dm:RB',
        kind: 'private',
        members: ['R', 'B'],
        openedBy: 'B',
        ply: 3,
        messages: [msg('dm:RB', 1, 'B', 'psst').message],
        more: false,
        readUpTo: 0,
        unread: 1,
      },
    ],
    existing: [],
    pacts: [],
    betrayals: [],
    draw: null,
    reveal: null,
    ...over,
  };
}

describe('press model: payloads', () => {
  test('before the history only the table shows, and nothing can be written', () => {
    const { m } = model();
    expect(m.ready).toBe(false);
    expect(m.tabs().map((t) => t.id)).toEqual(['table']);
    expect(m.compose('table')).toBe('none');
    expect(m.partners()).toEqual([]);
  });

  test('the history gives the tabs in order, with unread counts', () => {
    const { m } = model();
    expect(receive(m, 'press_history', history())).toBe(true);
    expect(m.ready).toBe(true);
    expect(m.me).toBe('R');
    expect(m.tabs()).toEqual([
      { id: 'table', kind: 'table', others: [], unread: 1 },
      { id: 'dm:RB', kind: 'private', others: ['B'], unread: 1 },
    ]);
    expect(m.totalUnread).toBe(2);
    expect(m.partners()).toEqual(['B', 'Y', 'G']);
    expect(m.feed('table').map((i) => i.kind === 'message' && [i.message.id, i.mine])).toEqual([
      [1, false],
      [2, true],
    ]);
  });

  test('viewing a tab marks it read once; other tabs keep their badge', () => {
    const { m, sent } = model();
    receive(m, 'press_history', history());
    expect(sent).toEqual([]); // not on screen yet
    m.setViewing(true);
    expect(sent).toEqual([{ type: 'press_read', payload: { channel: 'table', upTo: 2 } }]);
    expect(m.channel('table')!.unread).toBe(0);
    expect(m.channel('dm:RB')!.unread).toBe(1);
    m.setViewing(false);
    m.setViewing(true);
    expect(sent).toHaveLength(1);
    m.select('dm:RB');
    expect(sent[1]).toEqual({ type: 'press_read', payload: { channel: 'dm:RB', upTo: 1 } });
    expect(m.totalUnread).toBe(0);
    // A message arriving in the channel on screen is read at once; elsewhere it counts.
    receive(m, 'press_message', msg('dm:RB', 2, 'B'));
    expect(sent[2]).toEqual({ type: 'press_read', payload: { channel: 'dm:RB', upTo: 2 } });
    receive(m, 'press_message', msg('table', 3, 'Y'));
    expect(m.channel('table')!.unread).toBe(1);
    expect(sent).toHaveLength(3);
    // The server's count is the truth.
    receive(m, 'press_unread', { channel: 'table', readUpTo: 3, unread: 0 });
    expect(m.channel('table')!.unread).toBe(0);
  });

  test('own messages are never unread, and a repeated message is kept once', () => {
    const { m } = model();
    receive(m, 'press_history', history());
    receive(m, 'press_message', msg('table', 3, 'R'));
    receive(m, 'press_message', msg('table', 3, 'R'));
    expect(m.channel('table')!.unread).toBe(1);
    expect(m.channel('table')!.messages).toHaveLength(3);
  });

  test('the draft: counter in code points, the limit, sending and a refusal that gives the text back', () => {
    const { m, sent } = model();
    receive(m, 'press_history', history());
    expect(m.sendDraft()).toBe(false); // empty
    m.setDraft('   ');
    expect(m.sendDraft()).toBe(false);
    m.setDraft('🙂'.repeat(MAX_MESSAGE_CHARS));
    expect(m.draft()).toMatchObject({ count: MAX_MESSAGE_CHARS, over: false });
    m.setDraft('🙂'.repeat(MAX_MESSAGE_CHARS + 1));
    expect(m.draft()).toMatchObject({ count: MAX_MESSAGE_CHARS + 1, over: true });
    expect(m.sendDraft()).toBe(false);
    m.setDraft('<b>hi</b>');
    expect(m.sendDraft()).toBe(true);
    expect(sent.at(-1)).toEqual({ type: 'press_send', payload: { channel: 'table', text: '<b>hi</b>' } });
    expect(m.draft().text).toBe('');
    expect(m.rejected('press_send', 'rate_limited', 'too many actions', 800)).toBe(true);
    expect(m.error).toEqual({ area: 'chat', code: 'rate_limited', message: 'too many actions', retryAfterMs: 800 });
    expect(m.draft().text).toBe('<b>hi</b>');
    m.sendDraft();
    receive(m, 'press_message', msg('table', 3, 'R', '<b>hi</b>'));
    expect(m.error).toBeNull();
    expect(m.feed('table').at(-1)).toMatchObject({ kind: 'message', message: { text: '<b>hi</b>' } });
    // Drafts belong to their channel.
    m.setDraft('for the table');
    m.select('dm:RB');
    expect(m.draft().text).toBe('');
    m.select('table');
    expect(m.draft().text).toBe('for the table');
  });

  test('rejections of other actions are left to the page', () => {
    const { m } = model();
    expect(m.rejected('turn', 'not_your_turn', '')).toBe(false);
    expect(m.rejected('draw_offer', 'draw_offer_open', '')).toBe(false);
    expect(m.error).toBeNull();
  });

  test('opening a conversation: a known one is shown, a new one is asked for and shown when it comes', () => {
    const { m, sent } = model();
    receive(m, 'press_history', history());
    m.openWith(['B']);
    expect(m.selected).toBe('dm:RB');
    expect(sent.filter((s) => s.type === 'press_open')).toEqual([]);
    m.openWith(['G', 'Y']);
    expect(sent.at(-1)).toEqual({ type: 'press_open', payload: { members: ['Y', 'G'] } });
    expect(m.opening).toBe(true);
    receive(m, 'press_channel', { channel: { id: 'group:RYG', kind: 'group', members: ['R', 'Y', 'G'], openedBy: 'R', ply: 4 } });
    expect(m.opening).toBe(false);
    expect(m.selected).toBe('group:RYG');
    expect(m.tabs().map((t) => [t.id, t.others])).toContainEqual(['group:RYG', ['Y', 'G']]);
    // A channel someone else opened appears without taking the focus.
    receive(m, 'press_channel', { channel: { id: 'dm:RY', kind: 'private', members: ['R', 'Y'], openedBy: 'Y', ply: 4 } });
    expect(m.selected).toBe('group:RYG');
    m.openWith(['B', 'G']);
    m.rejected('press_open', 'game_over', 'the game is over');
    expect(m.opening).toBe(false);
    expect(m.error?.area).toBe('open');
  });

  test('the message box is offered where the viewer may write (a hint; the server decides)', () => {
    const spectator = model({ seat: null });
    receive(
      spectator.m,
      'press_history',
      history({
        you: 'abc',
        role: 'spectator',
        channels: [view('table', 'table', null), view('spectators', 'spectators', null)],
      }),
    );
    expect(spectator.m.compose('table')).toBe('read_only_table');
    expect(spectator.m.compose('spectators')).toBe('ok');
    expect(spectator.m.tabs().map((t) => t.id)).toEqual(['table', 'spectators']);
    expect(spectator.m.partners()).toEqual([]);
    const out = model({ active: ['B', 'Y', 'G'] });
    receive(out.m, 'press_history', history());
    expect(out.m.compose('table')).toBe('ok');
    expect(out.m.compose('dm:RB')).toBe('not_active');
    expect(out.m.partners()).toEqual([]);
    const over = model({ phase: 'over' });
    receive(over.m, 'press_history', history());
    expect(over.m.compose('dm:RB')).toBe('closed');
  });

  test('pacts: the proposal payload, invitations, waiting, in force, leaving', () => {
    const r = model();
    const b = model({ seat: 'B' });
    receive(r.m, 'press_history', history());
    receive(b.m, 'press_history', history({ you: 'B' }));
    r.m.propose(['Y', 'B'], null, false);
    r.m.propose(['B'], 3, true);
    expect(r.sent.map((s) => s.payload)).toEqual([{ with: ['B', 'Y'] }, { with: ['B'], rounds: 3, announce: true }]);
    const proposed = { event: 'proposed', by: 'R', pact: pactView() };
    receive(r.m, 'pact', proposed);
    receive(b.m, 'pact', proposed);
    expect(r.m.pactGroups()).toMatchObject({ invitations: [], waiting: [{ id: 'p1' }] });
    expect(b.m.pactGroups()).toMatchObject({ invitations: [{ id: 'p1' }], waiting: [] });
    b.m.accept('p1');
    expect(b.sent.at(-1)).toEqual({ type: 'pact_accept', payload: { pact: 'p1' } });
    const inForce = { event: 'in_force', by: 'B', pact: pactView({ status: 'in_force', accepted: ['R', 'B'], standing: ['R', 'B'], inForcePly: 2 }) };
    receive(r.m, 'pact', inForce);
    expect(r.m.pactGroups()).toMatchObject({ invitations: [], waiting: [], inForce: [{ id: 'p1' }] });
    expect(r.m.notices.map((n) => n.event)).toEqual(['proposed', 'in_force']);
    r.m.leave('p1');
    r.m.decline('p2');
    expect(r.sent.slice(-2)).toEqual([
      { type: 'pact_leave', payload: { pact: 'p1' } },
      { type: 'pact_decline', payload: { pact: 'p2' } },
    ]);
    r.m.rejected('pact_leave', 'pact_closed', 'no longer bound');
    expect(r.m.error).toMatchObject({ area: 'pact', code: 'pact_closed' });
    // A secret pact never shows on the table.
    expect(r.m.feed('table').some((i) => i.kind !== 'message')).toBe(false);
  });

  test('a betrayal raises an alert once; an announced pact and its betrayal show on the table', () => {
    const { m } = model({ seat: 'Y' });
    receive(
      m,
      'press_history',
      history({
        you: 'Y',
        channels: [view('table', 'table', null, { messages: [msg('table', 1, 'B', 'hello', 3).message, msg('table', 2, 'R', 'later', 9).message] })],
      }),
    );
    const announced = pactView({ announced: true, status: 'in_force', accepted: ['R', 'B'], standing: ['R', 'B'], inForcePly: 5 });
    receive(m, 'pact', { event: 'in_force', by: 'B', pact: announced });
    const betrayal = { pactId: 'p1', traitor: 'R', victim: 'B', ply: 7, turnText: 'a5xa3>e9', acts: ['kill'], at: 5000 };
    const broken = { ...announced, status: 'ended', standing: ['B'], broken: true, endedPly: 7, endReason: 'betrayed' };
    receive(m, 'betrayal', { betrayal, pact: broken });
    receive(m, 'betrayal', { betrayal, pact: broken });
    expect(m.alerts).toEqual([betrayal]);
    expect(m.feed('table').map((i) => (i.kind === 'message' ? `m${i.message.id}` : i.kind === 'pact' ? `pact ${i.event}` : 'betrayal'))).toEqual([
      'm1',
      'pact in_force',
      'betrayal',
      'pact ended',
      'm2',
    ]);
    m.dismissAlerts();
    expect(m.alerts).toEqual([]);
    expect(m.betrayals).toHaveLength(1);
    // A history (reconnect) raises no alert again.
    receive(m, 'press_history', history({ you: 'Y', pacts: [broken], betrayals: [betrayal] }));
    expect(m.alerts).toEqual([]);
    expect(m.betrayals).toHaveLength(1);
  });

  test('a reconnect replaces the history but keeps the drafts and the tab', () => {
    const { m } = model();
    receive(m, 'press_history', history());
    m.select('dm:RB');
    m.setDraft('half a thought');
    receive(m, 'press_history', history({ channels: [...history().channels, view('group:RBY', 'group', ['R', 'B', 'Y'])] }));
    expect(m.selected).toBe('dm:RB');
    expect(m.draft().text).toBe('half a thought');
    expect(m.tabs().map((t) => t.id)).toEqual(['table', 'dm:RB', 'group:RBY']);
    // A history without that channel (another seat now) goes back to the table.
    receive(m, 'press_history', history({ you: 'G', channels: [] }));
    expect(m.selected).toBe('table');
    expect(m.tabs().map((t) => t.id)).toEqual(['table']);
  });

  test('the reveal: its tab and ply groups', () => {
    const { m } = model({ phase: 'over' });
    receive(m, 'press_history', history());
    const reveal = {
      conversations: true,
      channels: [
        { id: 'table', kind: 'table', members: null, openedBy: null, ply: 0, more: false },
        { id: 'dm:BY', kind: 'private', members: ['B', 'Y'], openedBy: 'B', ply: 0, more: false },
      ],
      pacts: [pactView({ status: 'ended', endReason: 'game_over' })],
      betrayals: [],
      timeline: [
        { kind: 'message', ...msg('dm:BY', 1, 'B', 'secret', 0).message },
        { kind: 'channel', channel: 'dm:BY', members: ['B', 'Y'], by: 'B', ply: 0, at: 1 },
        { kind: 'pact', pactId: 'p1', event: 'proposed', by: 'R', ply: 2, at: 2 },
        { kind: 'draw', event: 'offered', offer: 1, by: 'R', ply: 2, at: 3 },
      ],
    };
    receive(m, 'pact', { event: 'proposed', by: 'R', pact: pactView() });
    expect(m.pactGroups().waiting).toHaveLength(1);
    receive(m, 'press_reveal', reveal);
    expect(m.selected).toBe(REVEAL_TAB);
    // Pacts end with the game without a message: the reveal has their final state.
    expect(m.pactGroups()).toMatchObject({ waiting: [], ended: [{ id: 'p1', endReason: 'game_over' }] });
    expect(m.tabs().at(-1)).toEqual({ id: 'reveal', kind: 'reveal', others: [], unread: 0 });
    expect(m.reveal!.timeline).toHaveLength(4);
    expect(groupByPly(m.reveal!.timeline).map((g) => [g.ply, g.items.length])).toEqual([
      [0, 2],
      [2, 2],
    ]);
    // A reveal the shared schema refuses (an unknown item) is dropped whole: the page keeps what it had.
    expect(receive(m, 'press_reveal', { ...reveal, timeline: [...reveal.timeline, { kind: 'nonsense' }] })).toBe(false);
    expect(m.reveal!.timeline).toHaveLength(4);
  });

  test('junk never throws and changes nothing', () => {
    const { m } = model();
    receive(m, 'press_history', history());
    const before = JSON.stringify(m.summary());
    for (const type of ['press_message', 'press_channel', 'press_exists', 'press_unread', 'pact', 'betrayal', 'draw', 'press_history']) {
      for (const junk of [null, 42, 'x', [], { message: { id: 'one' } }, { channel: { id: 'elsewhere' } }, { pact: { id: 3 } }]) {
        expect(() => receive(m, type, junk)).not.toThrow();
        if (type !== 'press_history') expect(JSON.stringify(m.summary())).toBe(before);
      }
    }
    expect(receive(m, 'seat', {})).toBe(false);
  });

  test('under press_visibility "existence" a channel of others is listed, never as a tab', () => {
    const { m } = model({ seat: 'Y' });
    receive(m, 'press_history', history({ you: 'Y', channels: [], existing: [{ channel: 'dm:RB', members: ['R', 'B'] }] }));
    receive(m, 'press_exists', { channel: 'group:RBG', members: ['R', 'B', 'G'] });
    receive(m, 'press_exists', { channel: 'group:RBG', members: ['R', 'B', 'G'] });
    expect(m.existing).toEqual([
      { channel: 'dm:RB', members: ['R', 'B'] },
      { channel: 'group:RBG', members: ['R', 'B', 'G'] },
    ]);
    expect(m.tabs().map((t) => t.id)).toEqual(['table']);
  });

  test('helpers', () => {
    expect(['table', 'spectators', 'dm:RB', 'group:RBY', 'other'].map(channelKind)).toEqual(['table', 'spectators', 'private', 'group', null]);
    expect(charCount('a🙂é')).toBe(3);
  });
});

/** Models wired to the server's own press, the way the room wires them (docs/PRESS.md INTEGRATION). */
class Table {
  readonly press = new Press({
    seats: ['R', 'B', 'Y', 'G'],
    newId: (() => {
      let n = 0;
      return () => `pact${++n}`;
    })(),
  });
  readonly models = new Map<string, PressModel>();
  readonly received = new Map<string, Sent[]>();
  now = 1_000_000;
  pos: Position = initialPosition();

  join(member: string, ctx: Partial<PressContext> = {}): PressModel {
    const m = new PressModel((type, payload) => {
      const r = this.press.handle(member, type, JSON.parse(JSON.stringify(payload ?? {})), (this.now += 1500));
      if (r.ok) this.deliver(r.deliveries);
      else m.rejected(type, r.error.code, r.error.message, r.error.retryAfterMs);
    });
    const seat = (['R', 'B', 'Y', 'G'] as string[]).includes(member) ? (member as Colour) : null;
    m.setContext({ seat, active: ['R', 'B', 'Y', 'G'], phase: 'playing', ...ctx });
    this.models.set(member, m);
    this.received.set(member, []);
    if (!seat) this.press.addSpectator(member, 'Watcher');
    this.deliver([this.press.historyDelivery(member)]);
    return m;
  }

  deliver(ds: readonly Delivery[]): void {
    for (const d of ds) {
      for (const to of d.to) {
        const payload = JSON.parse(JSON.stringify(d.payload)) as unknown;
        this.received.get(to)?.push({ type: d.type, payload });
        const model = this.models.get(to);
        // Every press payload the server builds decodes with the shared schema the page uses.
        if (model) expect(receive(model, d.type, payload)).toBe(true);
      }
    }
  }
}

describe('press model with the server press', () => {
  test('a private message reaches its two players and leaves no trace anywhere else', () => {
    const t = new Table();
    t.press.start(t.pos);
    const red = t.join('R');
    const blue = t.join('B');
    const yellow = t.join('Y');
    const watcher = t.join('spec-1');
    red.setViewing(true);
    red.openWith(['B']);
    expect(red.selected).toBe('dm:RB');
    red.setDraft('Let us take Yellow together');
    expect(red.sendDraft()).toBe(true);
    expect(red.feed('dm:RB')).toMatchObject([{ kind: 'message', mine: true, message: { text: 'Let us take Yellow together' } }]);
    expect(blue.tabs()).toContainEqual({ id: 'dm:RB', kind: 'private', others: ['R'], unread: 1 });
    expect(blue.totalUnread).toBe(1);
    for (const other of [yellow, watcher]) {
      expect(other.tabs().map((x) => x.id)).toEqual(other === watcher ? ['table', 'spectators'] : ['table']);
      expect(other.totalUnread).toBe(0);
    }
    for (const who of ['Y', 'spec-1']) expect(JSON.stringify(t.received.get(who))).not.toMatch(/dm:|take Yellow|RB/);
    // Blue reads it: the badge goes, and the server agrees.
    blue.setViewing(true);
    blue.select('dm:RB');
    expect(blue.totalUnread).toBe(0);
    expect(t.press.historyFor('B').channels.find((c) => c.id === 'dm:RB')).toMatchObject({ unread: 0, readUpTo: 1 });
    // Blue reloads: the history brings the conversation back.
    const again = t.join('B');
    expect(again.feed('dm:RB')).toHaveLength(1);
    expect(again.channel('dm:RB')!.unread).toBe(0);
  });

  test('a group needs the players chosen; the rate limit answers inline', () => {
    const t = new Table();
    t.press.start(t.pos);
    const red = t.join('R');
    const blue = t.join('B');
    const green = t.join('G');
    red.openWith(['B', 'G']);
    expect(red.selected).toBe('group:RBG');
    expect(blue.tabs().map((x) => x.id)).toContain('group:RBG');
    expect(green.tabs().map((x) => x.id)).toContain('group:RBG');
    t.now = 5_000_000;
    const send = (text: string) => {
      red.setDraft(text);
      red.sendDraft();
      t.now -= 1500; // the whole burst at once
    };
    for (let i = 0; i < 6; i++) send(`msg ${i}`);
    expect(red.error).toMatchObject({ area: 'chat', code: 'rate_limited' });
    expect(red.error!.retryAfterMs).toBeGreaterThan(0);
    expect(red.draft().text).toBe('msg 5');
    expect(blue.channel('group:RBG')!.messages).toHaveLength(5);
  });

  test('a pact proposed and accepted, then betrayed by a kill: one alert for the members only', () => {
    const t = new Table();
    const pos = position('Rc a9, Bc i9, Yc i1, Gc a1, Rm e2, Bm e3, Bm h5');
    t.pos = pos;
    t.press.start(pos);
    const red = t.join('R');
    const blue = t.join('B');
    const yellow = t.join('Y');
    red.propose(['B'], null, false);
    const id = red.pactGroups().waiting[0].id;
    expect(blue.pactGroups().invitations.map((p) => p.id)).toEqual([id]);
    expect(yellow.pactGroups()).toEqual({ invitations: [], waiting: [], inForce: [], ended: [] });
    blue.accept(id);
    expect(red.pactGroups().inForce.map((p) => p.id)).toEqual([id]);
    expect(blue.pactGroups().inForce.map((p) => p.id)).toEqual([id]);
    const kill = findTurn(pos, (fx, turn) => 'from' in turn && turn.from === 'e2' && fx.some((e) => e.type === 'kill'));
    const after = playTurn(pos, kill.turn);
    if (!after.ok) throw new Error(after.error.message);
    t.deliver(t.press.afterTurn(pos, after.value.position, after.value.effects, 'R', pos.ply, (t.now += 1000), 'e2xe3>e8'));
    for (const m of [red, blue]) {
      expect(m.alerts).toHaveLength(1);
      expect(m.alerts[0]).toMatchObject({ traitor: 'R', victim: 'B', acts: ['kill'] });
    }
    expect(yellow.alerts).toEqual([]);
    expect(yellow.betrayals).toEqual([]);
    expect(red.pact(id)).toMatchObject({ broken: true });
  });

  test('after the game everyone gets the reveal with the private talk in order', () => {
    const t = new Table();
    t.press.start(t.pos);
    const red = t.join('R');
    const blue = t.join('B');
    const watcher = t.join('spec-9');
    red.openWith(['B']);
    red.setDraft('secret plan');
    red.sendDraft();
    blue.setDraft('deal');
    blue.select('dm:RB');
    blue.setDraft('deal');
    blue.sendDraft();
    t.deliver(t.press.endGame((t.now += 1000)));
    for (const m of [red, blue, watcher]) {
      expect(m.selected).toBe(REVEAL_TAB);
      const texts = m.reveal!.timeline.flatMap((i) => (i.kind === 'message' ? [i.text] : []));
      expect(texts).toEqual(['secret plan', 'deal']);
    }
  });
});

describe('press model: older messages (press_page)', () => {
  const messages = (channel: string, from: number, to: number, who = 'B') =>
    Array.from({ length: to - from + 1 }, (_, i) => msg(channel, from + i, who).message);
  const ids = (m: PressModel, channel: string) => m.channel(channel)!.messages.map((x) => x.id);

  function paged() {
    const { m, sent } = model();
    receive(
      m,
      'press_history',
      history({
        channels: [
          { id: 'table', kind: 'table', members: null, openedBy: null, ply: 0, messages: messages('table', 71, 120), more: true, readUpTo: 60, unread: 60 },
          {
            id: 'dm:RB',
            kind: 'private',
            members: ['R', 'B'],
            openedBy: 'B',
            ply: 3,
            messages: messages('dm:RB', 1, 3),
            more: false,
            readUpTo: 0,
            unread: 3,
          },
        ],
      }),
    );
    return { m, sent };
  }

  test('"has older messages" comes from the history; loading one page at a time', () => {
    const { m, sent } = paged();
    expect(m.hasOlder('table')).toBe(true);
    expect(m.hasOlder('dm:RB')).toBe(false);
    expect(m.loadOlder('dm:RB')).toBe(false);
    expect(m.loadOlder('table')).toBe(true);
    expect(m.loadingOlder('table')).toBe(true);
    expect(m.loadOlder('table')).toBe(false); // one page on its way is enough
    expect(sent).toEqual([{ type: 'press_page', payload: { channel: 'table', before: 71, limit: 50 } }]);
  });

  test('a page is put in front, without repeats; unread counts and read marks do not change', () => {
    const { m } = paged();
    m.loadOlder('table');
    const before = { unread: m.channel('table')!.unread, readUpTo: m.channel('table')!.readUpTo, total: m.totalUnread };
    // The answer overlaps what is held (71, 72): kept once.
    expect(receive(m, 'press_page', { channel: 'table', before: 73, messages: messages('table', 23, 72), more: true })).toBe(true);
    expect(ids(m, 'table')).toEqual(Array.from({ length: 98 }, (_, i) => 23 + i));
    expect(m.loadingOlder('table')).toBe(false);
    expect(m.hasOlder('table')).toBe(true);
    expect({ unread: m.channel('table')!.unread, readUpTo: m.channel('table')!.readUpTo, total: m.totalUnread }).toEqual(before);
    expect(m.feed('table')[0]).toMatchObject({ kind: 'message', message: { id: 23 } });
    // The last page: nothing older left.
    m.loadOlder('table');
    receive(m, 'press_page', { channel: 'table', before: 23, messages: messages('table', 1, 22), more: false });
    expect(ids(m, 'table')).toHaveLength(120);
    expect(m.hasOlder('table')).toBe(false);
    expect(m.loadOlder('table')).toBe(false);
    // A live message still counts as before.
    receive(m, 'press_message', msg('table', 121, 'Y'));
    expect(m.channel('table')!.unread).toBe(before.unread + 1);
  });

  test('a page that does not join on to what is held, or of another channel, changes nothing', () => {
    const { m } = paged();
    receive(m, 'press_page', { channel: 'table', before: 40, messages: messages('table', 1, 39), more: false });
    expect(ids(m, 'table')[0]).toBe(71);
    expect(m.hasOlder('table')).toBe(true);
    // Messages of another channel, or not older than `before`, are dropped.
    receive(m, 'press_page', { channel: 'table', before: 71, messages: [...messages('dm:RB', 60, 70), ...messages('table', 69, 75)], more: true });
    expect(ids(m, 'table').slice(0, 3)).toEqual([69, 70, 71]);
    expect(ids(m, 'dm:RB')).toEqual([1, 2, 3]);
    // Junk: refused by the schema, or a page of no channel held, or before the first message.
    for (const junk of [null, {}, { channel: 'nowhere', before: 5, messages: [], more: false }, { channel: 'table', before: 0, messages: [], more: false }])
      receive(m, 'press_page', junk);
    expect(ids(m, 'table').slice(0, 3)).toEqual([69, 70, 71]);
  });

  test('a refused page frees the button and shows why', () => {
    const { m } = paged();
    m.loadOlder('table');
    expect(m.rejected('press_page', 'rate_limited', 'too many pages', 800)).toBe(true);
    expect(m.loadingOlder('table')).toBe(false);
    expect(m.error).toMatchObject({ area: 'chat', code: 'rate_limited', retryAfterMs: 800 });
    expect(m.loadOlder('table')).toBe(true);
  });

  test('after the game, revealed channels page into the reveal, in the order of the story', () => {
    const { m, sent } = model({ seat: null, phase: 'over' });
    const item = (channel: string, id: number, ply: number) => ({ kind: 'message', ...msg(channel, id, 'B', `m${id}`, ply).message });
    receive(
      m,
      'press_history',
      history({
        you: 'spec',
        role: 'spectator',
        phase: 'over',
        channels: [{ id: 'table', kind: 'table', members: null, openedBy: null, ply: 0, messages: [], more: false, readUpTo: 0, unread: 0 }],
        reveal: {
          conversations: true,
          channels: [
            { id: 'table', kind: 'table', members: null, openedBy: null, ply: 0, more: false },
            { id: 'dm:RB', kind: 'private', members: ['R', 'B'], openedBy: 'B', ply: 0, more: true },
          ],
          pacts: [],
          betrayals: [],
          timeline: [{ kind: 'draw', event: 'offered', offer: 1, by: 'R', ply: 1, at: 1000 }, item('dm:RB', 51, 2), item('dm:RB', 52, 3)],
        },
      }),
    );
    expect(m.revealOlder()).toEqual(['dm:RB']);
    expect(m.revealHasOlder('table')).toBe(false);
    expect(m.loadOlderRevealed('dm:RB')).toBe(true);
    expect(sent).toEqual([{ type: 'press_page', payload: { channel: 'dm:RB', before: 51, limit: 50 } }]);
    const older = [1, 2, 3].map((id) => msg('dm:RB', id, 'R', `old${id}`, id === 3 ? 2 : 0).message);
    receive(m, 'press_page', { channel: 'dm:RB', before: 51, messages: older, more: false });
    expect(m.reveal!.timeline.map((i) => (i.kind === 'message' ? i.id : i.kind))).toEqual([1, 2, 'draw', 3, 51, 52]);
    expect(m.revealOlder()).toEqual([]);
    expect(m.loadOlderRevealed('dm:RB')).toBe(false);
  });

  test('with the server press: a late spectator gets the latest messages, then pages back to the first', () => {
    const t = new Table();
    t.press.start(t.pos);
    const red = t.join('R');
    for (let i = 1; i <= 120; i++) {
      red.setDraft(`line ${i}`);
      red.sendDraft();
    }
    expect(red.error).toBeNull();
    const late = t.join('spec-late');
    expect(late.channel('table')!.messages).toHaveLength(50);
    expect(late.hasOlder('table')).toBe(true);
    const unread = late.channel('table')!.unread;
    expect(unread).toBe(120);
    while (late.loadOlder('table')) {
      // each page answers at once through the server press
    }
    expect(late.channel('table')!.messages.map((x) => x.text)).toEqual(Array.from({ length: 120 }, (_, i) => `line ${i + 1}`));
    expect(late.hasOlder('table')).toBe(false);
    expect(late.channel('table')!.unread).toBe(unread);
    expect(late.error).toBeNull();
    // A spectator may not page a private channel: the server says so, and the model shows it.
    t.press.handle('R', 'press_open', { members: ['B'] }, (t.now += 1500));
    expect(t.press.handle('spec-late', 'press_page', { channel: 'dm:RB', before: 5 }, (t.now += 1500))).toMatchObject({
      ok: false,
      error: { code: 'not_member' },
    });
  });
});

describe('press model: muting an author (this viewer only)', () => {
  /** A store kept in a variable, as the page keeps one in localStorage per game. */
  function memoryStore(initial: string[] = []) {
    const box = { saved: [...initial] };
    return { box, store: { load: () => box.saved, save: (t: readonly string[]) => void (box.saved = [...t]) } };
  }

  test('a muted seat and the muted spectators are hidden, counted, shown again on unmute, and kept for the game', () => {
    const { box, store } = memoryStore();
    const sent: Sent[] = [];
    const m = new PressModel((type, payload) => sent.push({ type, payload }), store);
    m.setContext({ seat: 'R', active: ['R', 'B', 'Y', 'G'], phase: 'waiting' });
    expect(receive(m, 'press_history', history({ phase: 'waiting' }))).toBe(true);
    for (let i = 3; i <= 10; i++) receive(m, 'press_message', msg('table', i, 'B', `flood ${i}`));
    receive(m, 'press_message', msg('table', 11, 'Y', 'hello'));
    receive(m, 'press_message', msg('table', 12, 'R', 'mine'));
    const texts = () => m.feed('table').flatMap((x) => (x.kind === 'message' ? [x.message.text] : []));
    expect(texts()).toHaveLength(12);

    m.mute('B');
    expect(m.isMuted('B')).toBe(true);
    expect(texts()).toEqual(['m2', 'hello', 'mine']);
    expect(m.hiddenIn('table')).toEqual([{ target: 'B', count: 9 }]);
    expect(box.saved).toEqual(['B']);
    // One's own seat cannot be muted; a muted author's later messages are hidden as they come.
    m.mute('R');
    expect(m.muted).toEqual(['B']);
    receive(m, 'press_message', msg('table', 13, 'B', 'more'));
    expect(m.hiddenIn('table')).toEqual([{ target: 'B', count: 10 }]);
    expect(m.hiddenIn('dm:RB')).toEqual([{ target: 'B', count: 1 }]);

    // A new page of the same game starts with the same mutes.
    const again = new PressModel(() => undefined, store);
    expect(again.muted).toEqual(['B']);

    m.unmute('B');
    expect(texts()).toHaveLength(13);
    expect(m.hiddenIn('table')).toEqual([]);
    expect(box.saved).toEqual([]);
    expect(sent).toEqual([]); // nothing goes to the server
  });

  test('spectators are muted together; a stored list is read defensively', () => {
    const { store } = memoryStore(['spectators', 'Q', 'G']);
    const m = new PressModel(() => undefined, store);
    expect(m.muted).toEqual(['G', 'spectators']);
    m.setContext({ seat: null, active: ['R', 'B', 'Y', 'G'], phase: 'playing' });
    receive(
      m,
      'press_history',
      history({ you: 'sess-me', role: 'spectator', channels: [view('table', 'table', null), view('spectators', 'spectators', null)] }),
    );
    receive(m, 'press_message', { message: { id: 1, channel: 'spectators', from: 'sess-a', name: 'Ann', text: 'spam', ply: 0, at: 1 } });
    receive(m, 'press_message', { message: { id: 2, channel: 'spectators', from: 'sess-me', name: 'Me', text: 'mine', ply: 0, at: 2 } });
    expect(m.feed('spectators').map((x) => (x.kind === 'message' ? x.message.text : ''))).toEqual(['mine']);
    expect(m.hiddenIn('spectators')).toEqual([{ target: 'spectators', count: 1 }]);
  });
});
