/**
 * Privacy: a spectator and a non-member player record every delivery addressed to them during a
 * scripted game with private and group talk and a secret pact; nothing in it carries private
 * content or metadata (no text, channel id, member list, count, size or pact id).
 */
import { initialPosition, type Position } from '@djambi/shared';
import { Press, channelIdOf, type PressVisibility } from '../../server/src/press/index.js';
import { Inbox, counterIds, fingerprint, ok, quietTurn, refused } from './helpers.js';

const SECRETS = ['psst-RB', 'plot-RBY', 'answer-BR', 'psst-spectators'];
const PRIVATE_IDS = ['dm:RB', 'group:RBY', 'dm:BY', 'dm:RY'];

/** The scripted game: returns the press, the inbox and the last position. */
function scriptedGame(visibility: PressVisibility = 'hidden', reveal = true) {
  const press = new Press({ seats: ['R', 'B', 'Y', 'G'], press_visibility: visibility, reveal_press_after_game: reveal, newId: counterIds('secretpact') });
  const inbox = new Inbox();
  expect(press.addSpectator('spec1', 'Watcher')).toBe(true);
  expect(press.addSpectator('spec2')).toBe(true);
  let pos: Position = initialPosition();
  let now = 1000;
  ok(press, inbox, 'R', 'press_send', { channel: 'table', text: 'hello all' }, now);
  press.start(pos);
  now += 10_000;
  ok(press, inbox, 'R', 'press_open', { members: ['B'] }, now);
  ok(press, inbox, 'R', 'press_send', { channel: 'dm:RB', text: 'psst-RB let us ally' }, now);
  ok(press, inbox, 'B', 'press_send', { channel: 'dm:RB', text: 'answer-BR yes' }, now);
  ok(press, inbox, 'spec1', 'press_send', { channel: 'spectators', text: 'psst-spectators R and B are plotting' }, now);
  ok(press, inbox, 'R', 'pact_propose', { with: ['B'] }, now);
  ok(press, inbox, 'B', 'pact_accept', { pact: 'secretpact1' }, now);
  for (let i = 0; i < 3; i++) {
    const t = quietTurn(pos);
    inbox.take(press.afterTurn(t.before, t.after, t.effects, t.mover, t.before.ply, now));
    pos = t.after;
    now += 10_000;
    ok(press, inbox, 'Y', 'press_open', { members: ['B', 'R'] }, now);
    ok(press, inbox, 'Y', 'press_send', { channel: 'group:RBY', text: `plot-RBY round ${i}` }, now);
    ok(press, inbox, 'G', 'press_send', { channel: 'table', text: `G says ${i}` }, now);
    ok(press, inbox, 'R', 'press_read', { channel: 'dm:RB', upTo: 2 }, now);
  }
  ok(press, inbox, 'B', 'pact_leave', { pact: 'secretpact1' }, now);
  return { press, inbox, pos, now };
}

function assertClean(records: { type: string; payload: unknown }[]) {
  const text = JSON.stringify(records);
  for (const s of [...SECRETS, ...PRIVATE_IDS, 'secretpact']) expect(text).not.toContain(s);
  for (const r of records) expect(['press_message', 'draw', 'press_history']).toContain(r.type);
  for (const r of records) {
    if (r.type === 'press_message') expect((r.payload as { message: { channel: string } }).message.channel).toBe('table');
  }
}

describe('privacy of private and group press', () => {
  test('a spectator and a non-member player receive nothing of private talk, pacts or the spectators channel', () => {
    const { press, inbox } = scriptedGame();
    // G (a non-member player) and the spectators recorded everything they were sent.
    const g = inbox.of('G');
    const s = inbox.of('spec1');
    expect(g.length).toBeGreaterThan(0);
    assertClean(g);
    // The spectator does see its own channel, and nothing private.
    const spectatorTalk = s.filter((r) => r.type === 'press_message' && (r.payload as { message: { channel: string } }).message.channel === 'spectators');
    expect(spectatorTalk).toHaveLength(1);
    assertClean(s.filter((r) => !spectatorTalk.includes(r)).concat([]));
    expect(JSON.stringify(inbox.of('spec2'))).not.toContain('plot-RBY');
    // G was never told of the spectators channel during the game.
    expect(JSON.stringify(g)).not.toContain('spectators');
    // Table ids are contiguous: no gap betrays private traffic.
    const tableIds = g.filter((r) => r.type === 'press_message').map((r) => (r.payload as { message: { id: number } }).message.id);
    expect(tableIds).toEqual(tableIds.map((_, i) => i + 1));
    // History (as after a reconnect) is just as clean.
    for (const who of ['G', 'spec1', 'spec2']) {
      const h = press.historyFor(who);
      expect(h.channels.map((c) => c.id).sort()).toEqual(who === 'G' ? ['table'] : ['spectators', 'table']);
      expect(h.existing).toEqual([]);
      expect(h.pacts).toEqual([]);
      expect(h.betrayals).toEqual([]);
      for (const s2 of [...SECRETS.filter((x) => x !== 'psst-spectators'), ...PRIVATE_IDS, 'secretpact']) expect(JSON.stringify(h)).not.toContain(s2);
    }
    expect(JSON.stringify(press.historyFor('G'))).not.toContain('psst-spectators');
  });

  test('members receive their talk; the pact reached its two members only', () => {
    const { inbox } = scriptedGame();
    for (const m of ['R', 'B']) expect(JSON.stringify(inbox.of(m))).toContain('psst-RB');
    expect(JSON.stringify(inbox.of('Y'))).not.toContain('psst-RB');
    for (const m of ['R', 'B', 'Y']) expect(JSON.stringify(inbox.of(m))).toContain('plot-RBY round 2');
    expect(inbox.types('R').filter((t) => t === 'pact')).toHaveLength(3); // proposed, in_force, left
    expect(inbox.types('Y')).not.toContain('pact');
  });

  test('probing a private channel answers the same whether it exists or not', () => {
    const press = new Press({ seats: ['R', 'B', 'Y', 'G'], newId: counterIds() });
    const inbox = new Inbox();
    press.addSpectator('spec1');
    press.start(initialPosition());
    const probes = () =>
      [
        press.handle('G', 'press_send', { channel: 'dm:RB', text: 'hi' }, 0),
        press.handle('G', 'press_read', { channel: 'dm:RB', upTo: 1 }, 0),
        press.handle('spec1', 'press_send', { channel: 'group:RBY', text: 'hi' }, 0),
        press.handle('spec1', 'press_read', { channel: 'dm:RB', upTo: 0 }, 0),
        press.handle('G', 'pact_accept', { pact: 'p1' }, 0),
        press.handle('spec1', 'pact_leave', { pact: 'p1' }, 0),
      ].map((r) => JSON.stringify(r));
    const before = probes();
    ok(press, inbox, 'R', 'press_open', { members: ['B'] }, 0);
    ok(press, inbox, 'Y', 'press_open', { members: ['R', 'B'] }, 0);
    ok(press, inbox, 'R', 'press_send', { channel: 'dm:RB', text: 'secret' }, 0);
    ok(press, inbox, 'R', 'pact_propose', { with: ['B'] }, 0);
    expect(probes()).toEqual(before);
    expect(JSON.parse(before[0]).error.code).toBe('not_member');
    expect(JSON.parse(before[4]).error.code).toBe('no_such_pact');
    expect(inbox.of('G')).toEqual([]);
    expect(inbox.of('spec1')).toEqual([]);
  });

  test("press_visibility 'existence': others learn that a channel exists, never its content or message count", () => {
    const { press, inbox } = scriptedGame('existence');
    const g = inbox.of('G').filter((r) => r.type === 'press_exists');
    expect(g.map((r) => r.payload)).toEqual([
      { channel: 'dm:RB', members: ['R', 'B'] },
      { channel: 'group:RBY', members: ['R', 'B', 'Y'] },
    ]);
    expect(inbox.of('spec1').filter((r) => r.type === 'press_exists')).toHaveLength(2);
    // Y was told of dm:RB (not a member), but not of its own group by press_exists.
    expect(
      inbox
        .of('Y')
        .filter((r) => r.type === 'press_exists')
        .map((r) => (r.payload as { channel: string }).channel),
    ).toEqual(['dm:RB']);
    const text = JSON.stringify(inbox.of('G'));
    for (const s of SECRETS) expect(text).not.toContain(s);
    expect(press.historyFor('G').existing).toEqual([
      { channel: 'dm:RB', members: ['R', 'B'] },
      { channel: 'group:RBY', members: ['R', 'B', 'Y'] },
    ]);
    expect(press.historyFor('R').existing).toEqual([]);
    // Exactly one notice per channel, however much is said in it.
    expect(inbox.of('G').filter((r) => r.type === 'press_exists')).toHaveLength(2);
  });

  test('after the game everything is revealed to everyone who played or watched', () => {
    const { press, inbox, pos, now } = scriptedGame();
    inbox.clear();
    inbox.take(press.endGame(now + 1, pos));
    for (const who of ['R', 'B', 'Y', 'G', 'spec1', 'spec2']) {
      const reveal = inbox.of(who).find((r) => r.type === 'press_reveal');
      expect(reveal).toBeDefined();
      const text = JSON.stringify(reveal);
      for (const s of SECRETS) expect(text).toContain(s);
      expect(text).toContain('secretpact1');
    }
    // And to someone who joins afterwards.
    press.addSpectator('late');
    expect(JSON.stringify(press.historyFor('late').reveal)).toContain('psst-RB');
  });

  test('reveal_press_after_game false: pacts are revealed, conversations stay private', () => {
    const { press, inbox, pos, now } = scriptedGame('hidden', false);
    inbox.clear();
    inbox.take(press.endGame(now + 1, pos));
    const reveal = inbox.of('G').find((r) => r.type === 'press_reveal')!;
    const text = JSON.stringify(reveal);
    for (const s of SECRETS) expect(text).not.toContain(s);
    for (const id of PRIVATE_IDS) expect(text).not.toContain(id);
    expect(text).toContain('secretpact1');
    expect((reveal.payload as { conversations: boolean }).conversations).toBe(false);
    expect(text).toContain('G says 2');
    // Members still have their own channels.
    expect(press.historyFor('R').channels.map((c) => c.id)).toContain('dm:RB');
  });

  test('the spectators channel: spectators and eliminated players write and read it; active players never get it', () => {
    const press = new Press({ seats: ['R', 'B', 'Y', 'G'], newId: counterIds() });
    const inbox = new Inbox();
    press.addSpectator('s');
    press.start(initialPosition());
    expect(refused(press, inbox, 'R', 'press_send', { channel: 'spectators', text: 'let me in' }, 0)).toBe('not_allowed');
    expect(refused(press, inbox, 'R', 'press_read', { channel: 'spectators', upTo: 0 }, 0)).toBe('not_allowed');
    expect(refused(press, inbox, 's', 'press_send', { channel: 'table', text: 'kibitz' }, 0)).toBe('not_allowed');
    ok(press, inbox, 's', 'press_send', { channel: 'spectators', text: 'watching' }, 0);
    expect(inbox.of('s')).toHaveLength(1);
    for (const c of ['R', 'B', 'Y', 'G']) expect(inbox.of(c)).toEqual([]);
    expect(fingerprint(press, ['R'])).not.toContain('watching');
    expect(channelIdOf(['B', 'R'])).toBe('dm:RB');
  });
});
