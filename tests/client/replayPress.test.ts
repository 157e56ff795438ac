/**
 * The replay's revealed press, page by page, without a browser: the reveal's timeline holds the
 * latest messages per channel; older pages from the archive are placed by their turn and time
 * between the other items, a page that does not continue its channel changes nothing, and the
 * result interleaves with the moves.
 */
import type { PressMessage, PressPage, PressReveal, RevealItem } from '@djambi/shared';
import { channelMembers, interleave, RevealStory } from '../../client/src/game/replay.js';

const msg = (channel: string, id: number, ply: number, at: number): PressMessage => ({ id, channel, from: 'R', text: `${channel}#${id}`, ply, at });
const item = (m: PressMessage): RevealItem => ({ kind: 'message', ...m });
const key = (i: RevealItem): string => (i.kind === 'message' ? `${i.channel}#${i.id}` : i.kind === 'pact' ? `pact:${i.event}` : i.kind);
const info = (id: string, more: boolean) => ({
  id,
  kind: id === 'table' ? ('table' as const) : ('private' as const),
  members: id === 'table' ? null : (['R', 'Y'] as const).slice(),
  openedBy: id === 'table' ? null : ('R' as const),
  ply: 0,
  more,
});

// Table: messages 1..6, one a turn (ply = id) at time 10 × id; the reveal holds 5..6 only.
// dm:RY: messages 1..3 at plies 0, 2, 4 (time 10 × ply + 5); the reveal holds 3.
const table = [1, 2, 3, 4, 5, 6].map((id) => msg('table', id, id, 10 * id));
const dm = [msg('dm:RY', 1, 0, 5), msg('dm:RY', 2, 2, 25), msg('dm:RY', 3, 4, 45)];
const pact: RevealItem = { kind: 'pact', pactId: 'p1', event: 'proposed', by: 'R', ply: 3, at: 31 };
const reveal: PressReveal = {
  conversations: true,
  channels: [info('table', true), info('dm:RY', true)],
  pacts: [],
  betrayals: [],
  timeline: [pact, item(dm[2]), item(table[4]), item(table[5])],
};
const page = (channel: string, before: number, messages: PressMessage[], more: boolean): PressPage => ({ channel, before, messages, more });

test('older pages are placed by turn and time, and every channel is read to its start', () => {
  const story = new RevealStory(reveal);
  expect(story.older()).toEqual([
    { channel: 'table', before: 5 },
    { channel: 'dm:RY', before: 3 },
  ]);
  expect(story.addPage(page('table', 5, table.slice(2, 4), true))).toBe(true);
  expect(story.older()).toEqual([
    { channel: 'table', before: 3 },
    { channel: 'dm:RY', before: 3 },
  ]);
  expect(story.timeline.map(key)).toEqual(['table#3', 'pact:proposed', 'table#4', 'dm:RY#3', 'table#5', 'table#6']);
  expect(story.addPage(page('dm:RY', 3, dm.slice(0, 2), false))).toBe(true);
  expect(story.addPage(page('table', 3, table.slice(0, 2), false))).toBe(true);
  expect(story.older()).toEqual([]);
  const all = story.timeline;
  expect(all.map(key)).toEqual(['dm:RY#1', 'table#1', 'table#2', 'dm:RY#2', 'table#3', 'pact:proposed', 'table#4', 'dm:RY#3', 'table#5', 'table#6']);
  // Plies never decrease, and the story interleaves with the moves as the reveal does.
  expect(all.every((x, i) => i === 0 || all[i - 1].ply <= x.ply)).toBe(true);
  const rows = interleave([0, 1, 2, 3, 4, 5, 6], all).map((r) => (r.kind === 'move' ? `m${r.index}` : key(r.item)));
  expect(rows.slice(0, 5)).toEqual(['dm:RY#1', 'm0', 'table#1', 'm1', 'table#2']);
});

test.each([
  ['a channel nobody asked for', page('group:RBY', 5, [], false)],
  ['the wrong `before`', page('table', 4, table.slice(2, 3), true)],
  ['a gap before the oldest held', page('table', 5, table.slice(1, 3), true)],
  ['ids out of order', page('table', 5, [table[3], table[2]], true)],
  ['another channel inside', page('table', 5, [msg('dm:RY', 3, 3, 30), table[3]], true)],
  ['nothing, yet more', page('table', 5, [], true)],
])('a page with %s changes nothing', (_, bad) => {
  const story = new RevealStory(reveal);
  const before = story.timeline;
  expect(story.addPage(bad)).toBe(false);
  expect(story.timeline).toBe(before);
  expect(story.older()).toHaveLength(2);
});

test('a reveal without older messages asks for nothing', () => {
  const story = new RevealStory({ ...reveal, channels: [info('table', false), info('dm:RY', false)] });
  expect(story.older()).toEqual([]);
  expect(story.timeline).toEqual(reveal.timeline);
  // An empty last page ends a channel.
  const s2 = new RevealStory(reveal);
  expect(s2.addPage(page('table', 5, [], false))).toBe(true);
  expect(s2.older()).toEqual([{ channel: 'dm:RY', before: 3 }]);
});

test('a betrayal comes after the turn that made it, and a private channel names its seats (issue 40, bug 9)', () => {
  // The betrayal of turn index 2 (the third move) is stamped ply 2, as the server records it.
  const betrayal: RevealItem = { kind: 'betrayal', pactId: 'p1', traitor: 'Y', victim: 'R', ply: 2, turnText: 'c3xd4>a1', acts: ['kill'], at: 30 };
  const before = item(msg('table', 9, 2, 25));
  const rows = interleave([0, 1, 2, 3], [before, betrayal]).map((r) => (r.kind === 'move' ? `m${r.index}` : key(r.item)));
  expect(rows).toEqual(['m0', 'm1', 'table#9', 'm2', 'betrayal', 'm3']);
  expect(interleave([0, 1, 2, 3], [betrayal]).find((r) => r.kind === 'press')).toMatchObject({ after: 3 });
  expect(channelMembers(null, 'dm:YR')).toEqual(['R', 'Y']);
  expect(channelMembers(reveal, 'dm:RY')).toEqual(['R', 'Y']);
});
