/**
 * The contract every `GameStore` keeps, as one suite run against each adapter on a real
 * database: `storeContract(name, factory)`.
 */
import { snapshotOf } from '../../server/src/match/snapshot.js';
import { Match } from '../../server/src/match/match.js';
import { CodeTaken, Fenced, type GameStore, isStoreError, StoreUnavailable } from '../../server/src/store/index.js';
import { event, newCode, playedMatch, roomConfig } from './helpers.js';

/** How a suite gets stores: `open` a new connection to one shared database. */
export interface StoreFactory {
  /**
   * A new store: with `secondHost`, on the database of this suite (a second call is a second host
   * on the same data); without it, each call opens a database of its own.
   */
  open(): Promise<GameStore>;
  /** Whether `open` gives stores on one shared database (false: each opens a database of its own). */
  readonly secondHost: boolean;
}

/** Defines the contract tests for one adapter. */
export function storeContract(name: string, factory: StoreFactory): void {
  describe(`${name}: GameStore contract`, () => {
    let store: GameStore;
    const extra: GameStore[] = [];

    beforeAll(async () => {
      store = await factory.open();
    });
    afterAll(async () => {
      for (const s of extra) await s.close();
      await store?.close();
    });

    async function second(): Promise<GameStore> {
      const s = await factory.open();
      extra.push(s);
      return s;
    }

    test('a played match round-trips: config, events in order, and the restored match is the same', async () => {
      const match = playedMatch(60);
      const code = newCode();
      await store.createGame(code, match.config, 1_700_000_000_000);
      for (const [i, e] of match.events.entries()) await store.append(code, i + 1, e);
      const game = await store.load(code);
      expect(game).not.toBeNull();
      expect(game!.code).toBe(code);
      expect(game!.status).toBe('open');
      expect(game!.createdAt).toBe(1_700_000_000_000);
      expect(game!.finishedAt).toBeNull();
      expect(game!.config).toEqual(match.config);
      expect(game!.events).toEqual(JSON.parse(JSON.stringify(match.events)));
      expect(game!.broken).toBeNull();
      const restored = Match.restore(game!.config, game!.events);
      expect(JSON.stringify(snapshotOf(restored))).toBe(JSON.stringify(snapshotOf(match)));
    });

    test('appendMany appends in order, all or none', async () => {
      const code = newCode();
      await store.createGame(code, roomConfig(), 1);
      await store.appendMany(code, 1, [event(10, 'a'), event(11, 'b')]);
      await store.append(code, 3, event(12, 'c'));
      // Seq 3 exists: the whole batch (3, 4) is refused and 4 is not kept.
      await expect(store.appendMany(code, 3, [event(13, 'x'), event(14, 'y')])).rejects.toBeInstanceOf(Fenced);
      await store.appendMany(code, 4, []);
      const game = await store.load(code);
      expect(game!.events.map((e) => e.at)).toEqual([10, 11, 12]);
    });

    test('quarantine moves every event after the prefix, in one go; the next append follows the prefix', async () => {
      const code = newCode();
      await store.createGame(code, roomConfig(), 1);
      const events = [event(10, 'a'), event(11, 'b'), event(12, 'c'), event(13, 'd'), event(14, 'e')];
      await store.appendMany(code, 1, events);
      const out = await store.quarantine(code, 3, 'refused by the match: not_your_turn');
      expect(out).toEqual({ moved: 3, where: expect.stringMatching(/quarantined_events/) });
      const game = await store.load(code);
      expect(game!.events.map((e) => e.at)).toEqual([10, 11]);
      expect(game!.broken).toBeNull();
      const moved = await store.quarantined(code);
      expect(moved).toEqual(
        [3, 4, 5].map((seq) => ({
          seq,
          payload: JSON.stringify(events[seq - 1]),
          at: 9 + seq,
          reason: 'refused by the match: not_your_turn',
          quarantinedAt: expect.any(Number),
        })),
      );
      expect(Math.abs(moved[0]!.quarantinedAt - Date.now())).toBeLessThan(60_000);
      // The game goes on after its prefix: seq 3 is free again, and fenced once taken.
      await store.append(code, 3, event(20, 'after'));
      await expect(store.append(code, 3, event(21))).rejects.toBeInstanceOf(Fenced);
      await store.append(code, 4, event(22, 'after'));
      expect((await store.load(code))!.events.map((e) => e.at)).toEqual([10, 11, 20, 22]);
      // Nothing after the prefix: nothing moves. A seq quarantined twice is kept twice.
      expect((await store.quarantine(code, 5, 'x')).moved).toBe(0);
      expect((await store.quarantine(code, 4, 'again')).moved).toBe(1);
      const all = await store.quarantined(code);
      expect(all.map((q) => [q.seq, q.reason]).sort()).toEqual([
        [3, 'refused by the match: not_your_turn'],
        [4, 'again'],
        [4, 'refused by the match: not_your_turn'],
        [5, 'refused by the match: not_your_turn'],
      ]);
      if (factory.secondHost) expect(await (await second()).quarantined(code)).toHaveLength(4);
    });

    test('quarantine of an unknown game moves nothing; a bad seq is a RangeError', async () => {
      expect((await store.quarantine('NOGAME', 1, 'x')).moved).toBe(0);
      expect(await store.quarantined('NOGAME')).toEqual([]);
      await expect(store.quarantine('NOGAME', 0, 'x')).rejects.toBeInstanceOf(RangeError);
    });

    test('an unknown code loads as null', async () => {
      expect(await store.load('NOPE00')).toBeNull();
    });

    test('a duplicate code is CodeTaken, also from a second host', async () => {
      const code = newCode();
      await store.createGame(code, roomConfig(), 1);
      const err = await store.createGame(code, roomConfig('public'), 2).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CodeTaken);
      expect(isStoreError(err, 'code_taken')).toBe(true);
      if (factory.secondHost) await expect((await second()).createGame(code, roomConfig(), 3)).rejects.toBeInstanceOf(CodeTaken);
      expect((await store.load(code))!.createdAt).toBe(1);
    });

    const secondHostTest = factory.secondHost ? test : (_name: string, _fn: () => Promise<void>) => undefined;

    secondHostTest('a duplicate seq is Fenced: the stale host of a game fails its next append', async () => {
      const code = newCode();
      await store.createGame(code, roomConfig(), 1);
      await store.append(code, 1, event(1));
      // A second host takes the game over from the log and appends seq 2.
      const other = await second();
      const taken = await other.load(code);
      expect(taken!.events).toHaveLength(1);
      await other.append(code, 2, event(2, 'new host'));
      // The stale host still thinks the next seq is 2.
      const err = await store.append(code, 2, event(2, 'stale host')).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Fenced);
      expect(isStoreError(err, 'fenced')).toBe(true);
      expect((await store.load(code))!.events.map((e) => (e.intent as { payload: { text: string } }).payload.text)).toEqual(['hi', 'new host']);
    });

    secondHostTest('two hosts appending the same seq at once: exactly one wins, the other is Fenced', async () => {
      const code = newCode();
      await store.createGame(code, roomConfig(), 1);
      const other = await second();
      for (let seq = 1; seq <= 5; seq++) {
        const results = await Promise.allSettled([store.append(code, seq, event(seq, 'a')), other.append(code, seq, event(seq, 'b'))]);
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        const lost = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
        expect(lost?.reason).toBeInstanceOf(Fenced);
      }
      expect((await store.load(code))!.events.map((e) => e.at)).toEqual([1, 2, 3, 4, 5]);
    });

    test('a seq that does not follow the log is Fenced; a bad seq is a RangeError', async () => {
      const code = newCode();
      await store.createGame(code, roomConfig(), 1);
      await expect(store.append(code, 2, event(1))).rejects.toBeInstanceOf(Fenced);
      await store.append(code, 1, event(1));
      await expect(store.append(code, 5, event(1))).rejects.toBeInstanceOf(Fenced);
      await expect(store.append(code, 0, event(1))).rejects.toBeInstanceOf(RangeError);
      expect((await store.load(code))!.events).toHaveLength(1);
    });

    test('an append or finish of an unknown game rejects with a store error', async () => {
      const err = await store.append('NOGAME', 1, event(1)).catch((e: unknown) => e);
      expect(isStoreError(err)).toBe(true);
      await expect(store.finish('NOGAME', 1, { result: null, players: {}, moves: 0 })).rejects.toBeInstanceOf(StoreUnavailable);
    });

    test('finish, listGames and recentFinished', async () => {
      const base = 2_000_000_000_000 + Math.floor(Math.random() * 1e9);
      const pub = newCode();
      const priv = newCode();
      const open = newCode();
      await store.createGame(pub, roomConfig('public'), base);
      await store.createGame(priv, roomConfig('private'), base + 1);
      await store.createGame(open, roomConfig('public'), base + 2);
      const match = playedMatch(10);
      const summary = { result: match.position.result, players: { R: 'p0', B: 'p1', Y: 'p2', G: 'p3' }, moves: match.game.length };
      await store.finish(pub, base + 100, summary);
      await store.finish(priv, base + 200, { result: null, players: { R: 'x' }, moves: 0 });

      const listed = await store.listGames([pub, priv, open, 'NONE00', pub]);
      expect(listed.map((g) => g.code)).toEqual([open, priv, pub]);
      expect(listed[2]).toEqual({ code: pub, status: 'finished', visibility: 'public', createdAt: base, finishedAt: base + 100, summary });
      expect(listed[0]).toMatchObject({ code: open, status: 'open', finishedAt: null, summary: null });
      expect(await store.listGames([])).toEqual([]);

      const recent = await store.recentFinished({ limit: 2, publicOnly: false });
      expect(recent.map((g) => g.code)).toEqual([priv, pub]);
      const publicOnly = await store.recentFinished({ limit: 10, publicOnly: true });
      expect(publicOnly[0]!.code).toBe(pub);
      expect(publicOnly.every((g) => g.visibility === 'public' && g.status === 'finished')).toBe(true);
      expect((await store.load(pub))!.status).toBe('finished');
      expect((await store.unfinished()).includes(pub)).toBe(false);
    });

    test('listGames of many codes (more than one query chunk)', async () => {
      const codes = Array.from({ length: 130 }, () => newCode());
      for (const [i, code] of codes.entries()) await store.createGame(code, roomConfig(), 3_000_000_000_000 + i);
      const listed = await store.listGames(codes);
      expect(listed).toHaveLength(130);
      expect(listed[0]!.code).toBe(codes[129]);
    });

    test('unfinished: every open game, or those active since a time', async () => {
      const t = 4_000_000_000_000 + Math.floor(Math.random() * 1e9);
      const old = newCode();
      const oldButMoving = newCode();
      const fresh = newCode();
      const done = newCode();
      await store.createGame(old, roomConfig(), t - 10_000);
      await store.createGame(oldButMoving, roomConfig(), t - 10_000);
      await store.append(oldButMoving, 1, event(t + 5));
      await store.createGame(fresh, roomConfig(), t + 1);
      await store.createGame(done, roomConfig(), t + 2);
      await store.finish(done, t + 3, { result: null, players: {}, moves: 0 });
      const all = await store.unfinished();
      expect(all).toEqual(expect.arrayContaining([old, oldButMoving, fresh]));
      expect(all).not.toContain(done);
      const active = await store.unfinished({ activeSince: t });
      expect(active).toEqual(expect.arrayContaining([oldButMoving, fresh]));
      expect(active).not.toContain(old);
      expect(active).not.toContain(done);
    });

    test('a game nobody sat at is new: markSeated keeps it, discardUnseated and sweepUnseated delete it (issue 43)', async () => {
      const t = 5_000_000_000_000 + Math.floor(Math.random() * 1e9);
      const junk = newCode();
      const seated = newCode();
      const moving = newCode();
      const done = newCode();
      const young = newCode();
      for (const code of [junk, seated, moving, done]) await store.createGame(code, roomConfig(), t - 10_000);
      await store.createGame(young, roomConfig(), t + 1);
      expect((await store.load(junk))!.seated).toBe(false);
      expect((await store.load(junk))!.status).toBe('open');
      await store.markSeated(seated);
      await store.markSeated(seated); // idempotent
      await store.markSeated('NONE00'); // an unknown code is a no-op
      await store.append(seated, 1, event(t - 9_000));
      expect((await store.load(seated))!.seated).toBe(true);
      await store.append(moving, 1, event(t + 5)); // bots playing: activity after the cut
      await store.finish(done, t - 5_000, { result: null, players: {}, moves: 0 });
      await store.append(junk, 1, event(t - 9_500));
      expect(await store.resumable(1000)).toContain(seated);
      expect(await store.resumable(1000)).not.toContain(junk);

      expect(await store.discardUnseated(seated)).toBe(false);
      expect(await store.discardUnseated(done)).toBe(false);
      expect(await store.sweepUnseated(t)).toBeGreaterThanOrEqual(1);
      expect(await store.load(junk)).toBeNull();
      for (const kept of [seated, moving, done, young]) expect(await store.load(kept)).not.toBeNull();
      expect(await store.discardUnseated(young)).toBe(true);
      expect(await store.load(young)).toBeNull();
      expect(await store.discardUnseated(young)).toBe(false);
      // The code is free again.
      await store.createGame(young, roomConfig(), t + 2);
    });

    test('resumable: games people sat at, newest activity first, at most the limit', async () => {
      const t = 6_000_000_000_000 + Math.floor(Math.random() * 1e9);
      const a = newCode();
      const b = newCode();
      const c = newCode();
      await store.createGame(a, roomConfig(), t);
      await store.createGame(b, roomConfig(), t + 1);
      await store.createGame(c, roomConfig(), t + 2);
      for (const code of [a, b, c]) await store.markSeated(code);
      await store.append(a, 1, event(t + 100)); // a: the most recent activity
      const order = (await store.resumable(10_000)).filter((code) => [a, b, c].includes(code));
      expect(order).toEqual([a, c, b]);
      expect(await store.resumable(2)).toHaveLength(2);
    });

    test('after close every call rejects with StoreUnavailable; close is idempotent', async () => {
      const s = await factory.open();
      const code = newCode();
      await s.createGame(code, roomConfig(), 1);
      await s.close();
      await s.close();
      await expect(s.append(code, 1, event(1))).rejects.toBeInstanceOf(StoreUnavailable);
      await expect(s.appendMany(code, 1, [event(1)])).rejects.toBeInstanceOf(StoreUnavailable);
      await expect(s.createGame(newCode(), roomConfig(), 1)).rejects.toBeInstanceOf(StoreUnavailable);
      await expect(s.load(code)).rejects.toBeInstanceOf(StoreUnavailable);
      await expect(s.unfinished()).rejects.toBeInstanceOf(StoreUnavailable);
      await expect(s.listGames([code])).rejects.toBeInstanceOf(StoreUnavailable);
      await expect(s.recentFinished({ limit: 1, publicOnly: false })).rejects.toBeInstanceOf(StoreUnavailable);
      await expect(s.finish(code, 1, { result: null, players: {}, moves: 0 })).rejects.toBeInstanceOf(StoreUnavailable);
      await expect(s.quarantine(code, 1, 'x')).rejects.toBeInstanceOf(StoreUnavailable);
      await expect(s.quarantined(code)).rejects.toBeInstanceOf(StoreUnavailable);
      // The data is still there for the others.
      if (factory.secondHost) expect(await store.load(code)).not.toBeNull();
    });
  });
}
