/**
 * Durable games in Chromium: a short game is played to its end through the real server (with a
 * store), a rematch is made, its room is disposed, and then `/g/CODE` still shows the finished
 * game with a link to its rematch, and
 * `/g/CODE/replay#ply=3` opens at move 3 and steps with the keyboard. `/replay` imports a pasted
 * record, and a malformed one shows an error with its line and column. A room that hit a bug
 * (close code 4101) comes back by itself. Last, a server restart:
 * the page says so and comes back by itself.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { matchMaker } from '@colyseus/core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { applyEvent, initialPosition, legalTurns, makeFen, makeTurn, parseRecord, parseRules, type GameRecord } from '@djambi/shared';
import { createServer, type RunningServer } from '../../server/src/app.js';
import { SqliteStore } from '../../server/src/store/sqlite.js';
import { eventually } from '../support/wait.js';
import { createRoom, fullRoom, join, leaveAll, playRandomGame, quietSdkWarnings, type TestClient } from '../server/helpers.js';
import { CLIENT_DIST, describeWithBrowser, ensureClientBuilt, launchChromium, outputFile, pageState, waitForText, waitReady, waitState } from './helpers.js';

const describeBrowser = describeWithBrowser();
quietSdkWarnings();

/** The FEN after the first `n` events of a record. */
function fenAfter(record: GameRecord, n: number): string {
  let pos = initialPosition(record.rules);
  for (const e of record.events.slice(0, n)) {
    const r = applyEvent(pos, e);
    if (!r.ok) throw new Error(r.error.message);
    pos = r.value.position;
  }
  return makeFen(pos);
}

describeBrowser('finished games stay readable; records import', () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  // The real default store: a SQLite file, read again after the room is gone and across the restart.
  const store = SqliteStore.open(path.join(mkdtempSync(path.join(os.tmpdir(), 'djambi-e2e-')), 'replay.sqlite'));
  const errors: string[] = [];
  let code = '';
  let rematch = '';
  let recordText = '';
  let record: GameRecord;

  beforeAll(async () => {
    ensureClientBuilt();
    server = await createServer({ port: 0, host: '127.0.0.1', clientDir: CLIENT_DIST, store, graceSeconds: 5 });
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1100, height: 760 } });
    page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
  });

  afterAll(async () => {
    await server?.close();
    await store.close();
    await context?.close().catch(() => undefined);
    await browser?.close().catch(() => undefined);
  });

  test('a short game is played to its end and its room is disposed', async () => {
    const room = await fullRoom(server, { rules: { players: 2 }, visibility: 'public' }, 0);
    code = room.code;
    room.players[0].room.send('start');
    await Promise.all(room.all.map((c) => c.waitState((s) => s.phase === 'playing', 'start')));
    await playRandomGame(room.players, room.all, 7, {
      maxTurns: 6,
      // After the second turn, a word at the table: the replay shows it between moves 2 and 3.
      afterEvent: async (version) => {
        if (room.players[0].state.moves.length !== 2) return;
        room.players[0].room.send('press_send', { channel: 'table', text: 'Peace, friends' });
        await room.players[0].waitMessage('press_message');
        // And a private word: the replay names its channel by its players, as the live reveal does.
        room.players[0].room.send('press_open', { members: ['Y'] });
        await room.players[1].waitMessage('press_channel');
        const n = room.players[1].received('press_message').length;
        room.players[0].room.send('press_send', { channel: 'dm:RY', text: 'Just us' });
        await room.players[1].waitMessage('press_message', n);
        void version;
      },
    });
    expect(room.players[0].state.phase).toBe('over');
    // A rematch is made: the finished game links to it once its room is gone.
    room.players[0].room.send('rematch', { action: 'offer' });
    await room.players[1].waitMessage('rematch_state');
    room.players[1].room.send('rematch', { action: 'accept' });
    rematch = (await room.players[0].waitMessage('rematch_seat', 0, 10_000)).code;
    await leaveAll(room.all);
    const live = matchMaker.getLocalRoomById(code);
    if (live) await live.disconnect();
    await eventually(
      () => matchMaker.query({ roomId: code }),
      (listed) => listed.length === 0,
      `room ${code} gone from the listings`,
    );
    expect(await matchMaker.query({ roomId: code })).toHaveLength(0);
    recordText = await (await fetch(`${server.url}/api/games/${code}/record`)).text();
    const parsed = parseRecord(recordText);
    if (!parsed.ok) throw new Error(parsed.error.message);
    record = parsed.value;
    // The stored game's record is headed by its tags (issue 40, bug 9).
    expect(record.tags).toMatchObject({ Event: 'Djambi online', Site: `${server.url}/g/${code}`, Variant: 'square', Red: 'p0', Yellow: 'p1' });
    expect(record.tags?.Result).toMatch(/^(R|Y|draw)$/);
    expect(record.tags?.Termination).not.toBe('unterminated');
    const json = await (await fetch(`${server.url}/api/games/${code}/record?format=json`)).json();
    expect(json.tags).toEqual(record.tags);
    expect(record.events.length).toBeGreaterThanOrEqual(7);
  });

  test('/g/CODE shows the finished game: result, moves and the board at the end', async () => {
    await page.goto(`${server.url}/g/${code}`);
    const total = record.events.length;
    await page.waitForSelector('#replay', { timeout: 15000 });
    await waitForText(page.locator('#replay-outcome'), /wins|Draw/);
    await waitForText(page.locator('#replay-ply'), new RegExp(`^Move ${total} of ${total}`));
    expect(await page.locator('#replay-story button.move').count()).toBe(total);
    expect(await page.locator('#replay').getAttribute('data-fen')).toBe(fenAfter(record, total));
    expect(await page.locator('#board canvas').count()).toBe(1);
    // The revealed press sits between the moves by its ply.
    const rows = await page
      .locator('#replay-story > li')
      .evaluateAll((lis) => lis.map((li) => (li.classList.contains('press-row') ? `p:${li.textContent}` : 'm')));
    expect(rows.slice(0, 6)).toEqual([
      'm',
      'm',
      expect.stringMatching(/^p:.*Peace, friends/),
      'p:p0 opened a conversation with p1.',
      // A private channel is named by its players, as in the live reveal (issue 40, bug 9).
      'p:[p0 · p1] p0: Just us',
      'm',
    ]);
    expect(await page.locator('#export-text').getAttribute('href')).toBe(`/api/games/${code}/record`);
    expect(await page.locator('#replay-rematch').getAttribute('href')).toBe(`/g/${rematch}`);
    expect(await page.textContent('#replay-rematch')).toBe(`Rematch: game ${rematch}`);
    expect(await page.textContent('body')).not.toContain('does not exist');
    await page.screenshot({ path: outputFile('finished-game.png') });
  });

  test('/g/CODE/replay#ply=3 opens at move 3 and steps with the keyboard, buttons and slider', async () => {
    const total = record.events.length;
    await page.goto(`${server.url}/g/${code}/replay#ply=3`);
    await page.waitForSelector('#replay');
    await waitForText(page.locator('#replay-ply'), new RegExp(`^Move 3 of ${total}`));
    const fen = () => page.locator('#replay').getAttribute('data-fen');
    expect(await fen()).toBe(fenAfter(record, 3));
    await page.keyboard.press('ArrowRight');
    await waitForText(page.locator('#replay-ply'), new RegExp(`^Move 4 of ${total}`));
    expect(await fen()).toBe(fenAfter(record, 4));
    expect(new URL(page.url()).hash).toBe('#ply=4');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await waitForText(page.locator('#replay-ply'), new RegExp(`^Move 2 of ${total}`));
    await page.keyboard.press('End');
    await waitForText(page.locator('#replay-ply'), new RegExp(`^Move ${total} of ${total}`));
    await page.keyboard.press('Home');
    await waitForText(page.locator('#replay-ply'), /^Move 0 of/);
    expect(await fen()).toBe(fenAfter(record, 0));
    await page.click('#replay-next');
    await waitForText(page.locator('#replay-ply'), /^Move 1 of/);
    await page.locator('#replay-slider').fill('5');
    await waitForText(page.locator('#replay-ply'), /^Move 5 of/);
    expect(await page.locator('#replay-link').getAttribute('href')).toBe('#ply=5');
    await page.screenshot({ path: outputFile('replay.png') });
    // Space plays: the position moves on by itself.
    await page.keyboard.press('Home');
    await page.keyboard.press('Space');
    await waitForText(page.locator('#replay-ply'), /^Move [1-9]\d* of/, 5000);
    await page.keyboard.press('Space');
    expect(errors).toEqual([]);
  });

  test('at 1280×720 the board leaves the side column alone: "Load older messages" can be clicked', async () => {
    const wide = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    try {
      const p = await wide.newPage();
      p.on('pageerror', (e) => errors.push(e.message));
      await p.goto(`${server.url}/g/${code}/replay`);
      await p.waitForSelector('#replay #board canvas');
      // This short game's press fits in one page; a longer one shows the button, as here.
      await p.evaluate(() => {
        (document.getElementById('replay-older') as HTMLButtonElement).hidden = false;
      });
      // A trial click fails when another element (the canvas) would receive it.
      await p.click('#replay-older', { trial: true, timeout: 5000 });
      await p.locator('#replay-story button.move').first().click({ trial: true, timeout: 5000 });
      const canvas = (await p.locator('#board canvas').boundingBox())!;
      const side = (await p.locator('#replay .side').boundingBox())!;
      expect(canvas.x + canvas.width).toBeLessThanOrEqual(side.x);
      expect(errors).toEqual([]);
    } finally {
      await wide.close();
    }
  });

  test('/replay imports a pasted record and shows it; a malformed one is an error with line and column', async () => {
    await page.goto(`${server.url}/replay`);
    await page.fill('#import-text', recordText);
    await page.click('#import-show');
    await page.waitForSelector('#replay');
    const total = record.events.length;
    expect(await page.locator('#replay').getAttribute('data-total')).toBe(String(total));
    await page.keyboard.press('End');
    await waitForText(page.locator('#replay-ply'), new RegExp(`^Move ${total} of ${total}`));
    expect(await page.locator('#replay').getAttribute('data-fen')).toBe(fenAfter(record, total));
    expect(await page.locator('#export-text').getAttribute('href')).toMatch(/^blob:/);

    await page.fill('#import-text', 'Djambi players=4\nc7-c6 g7-g6\n  i3-i5 zz9\n');
    await page.click('#import-show');
    await waitForText(page.locator('#import-error'), /line 3, column 9/);
    // The place is said once (issue 40, bug 9).
    expect((await page.textContent('#import-error'))?.match(/line \d+/g)).toHaveLength(1);
    expect(await page.locator('#replay').count()).toBe(0);
    await page.fill('#import-text', '{"rules": {},\n "events": [,]}');
    await page.click('#import-show');
    await waitForText(page.locator('#import-error'), /line 2, column 13/);
    expect((await page.textContent('#import-error'))?.match(/line \d+|position \d+/g)).toHaveLength(1);
    // The page explains the record for a player; it does not send them to a developer's file.
    expect(await page.textContent('#import-form')).not.toContain('.md');
    await page.click('#import-format summary');
    await waitForText(page.locator('#import-format'), /Djambi players=4/);
    expect(errors).toEqual([]);
  });

  test('the home page lists the games of this browser and the recently finished ones', async () => {
    await page.goto(`${server.url}/`);
    await waitForText(page.locator('#recent-games'), new RegExp(code));
    expect(await page.locator(`#recent-games a[href="/g/${code}/replay"]`).count()).toBe(1);
    // A seat key of that game in this browser puts it in "Your games".
    await page.evaluate((c) => localStorage.setItem(`djambi:seat:${c}`, JSON.stringify({ colour: 'R', seatKey: 'x' })), code);
    await page.reload();
    await waitForText(page.locator('#your-games'), new RegExp(code));
    expect(await page.locator(`#your-games a[href="/g/${code}"]`).count()).toBe(1);
  });

  /** A new room (its creator a colyseus.js client) with a seat taken in a fresh browser page. */
  async function seatedPage(): Promise<{ creator: TestClient; live: string; fresh: BrowserContext; p: Page; seat: string }> {
    const creator: TestClient = await createRoom(server, { name: 'host' });
    const live = creator.state.code as string;
    const fresh = await browser.newContext({ viewport: { width: 1100, height: 760 } });
    const p = await fresh.newPage();
    p.on('pageerror', (e) => errors.push(e.message));
    await p.goto(`${server.url}/g/${live}`);
    await waitReady(p);
    await p.fill('#player-name', 'Browser');
    await p.click('#take-seat');
    await waitState(p, 's.seat !== null');
    return { creator, live, fresh, p, seat: (await pageState(p)).seat as string };
  }

  test('a server restart: the page says so and comes back by itself, seat kept', async () => {
    const { creator, live, fresh, p, seat } = await seatedPage();
    const port = server.port;
    // What SIGTERM does: every room says `server_restart` and closes with 4100; then a new process.
    await leaveAll([creator]);
    const room = matchMaker.getLocalRoomById(live);
    room?.onBeforeShutdown();
    await waitForText(p.locator('#net-banner'), /server is restarting/);
    await server.close();
    server = await createServer({ port, host: '127.0.0.1', clientDir: CLIENT_DIST, store, graceSeconds: 5 });
    await waitState(p, `s.seat === '${seat}' && s.phase === 'waiting'`, 30000);
    await waitForText(p.locator('#net-banner'), /Reconnected/, 10000);
    await fresh.close();
    expect(errors).toEqual([]);
  });

  test('a spectator page comes back from a server restart under its name (issue 40, bug 7)', async () => {
    const { creator, live, fresh, p, seat } = await seatedPage();
    const watcher = await browser.newContext({ viewport: { width: 1100, height: 760 } });
    await watcher.addInitScript(() => localStorage.setItem('djambi:name', 'Watcher'));
    const w = await watcher.newPage();
    w.on('pageerror', (e) => errors.push(e.message));
    await w.goto(`${server.url}/g/${live}`);
    await waitReady(w);
    await creator.waitState((s) => (s.spectatorNames as string[]).includes('Watcher'), 'the spectator named');
    const port = server.port;
    await leaveAll([creator]);
    matchMaker.getLocalRoomById(live)?.onBeforeShutdown();
    await waitForText(w.locator('#net-banner'), /server is restarting/);
    await server.close();
    server = await createServer({ port, host: '127.0.0.1', clientDir: CLIENT_DIST, store, graceSeconds: 5 });
    await waitState(p, `s.seat === '${seat}'`, 30000);
    await waitForText(w.locator('#net-banner'), /Reconnected/, 30000);
    const look = await join(server, live, { spectate: true, name: 'Look' });
    await look.waitState((s) => (s.spectatorNames as string[]).includes('Watcher'), 'the spectator named again after the restart', 10000);
    await leaveAll([look]);
    await watcher.close();
    await fresh.close();
    expect(errors).toEqual([]);
  });

  test('a room that hit a bug: the page says the game is reopening and comes back by itself, seat kept', async () => {
    const { creator, live, fresh, p, seat } = await seatedPage();
    await leaveAll([creator]);
    // What a bug inside the room does (tests/server/roomFault.test.ts injects real ones): close code 4101.
    const room = matchMaker.getLocalRoomById(live) as unknown as { fault(e: unknown, where: string): void };
    const quiet = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    room.fault(new Error('injected'), 'intent');
    await waitForText(p.locator('#net-banner'), /game is reopening/);
    await waitState(p, `s.seat === '${seat}' && s.phase === 'waiting'`, 30000);
    await waitForText(p.locator('#net-banner'), /Reconnected/, 10000);
    quiet.mockRestore();
    await fresh.close();
    expect(errors).toEqual([]);
  });

  test('a turn made while the server restarts is sent when the page is back', async () => {
    // Two players: the creator (Red, a plain colyseus.js client) and the page (Yellow).
    const creator = await createRoom(server, { name: 'host', rules: { players: 2 } });
    const live = creator.state.code as string;
    const fresh = await browser.newContext({ viewport: { width: 1100, height: 760 }, acceptDownloads: true });
    const p = await fresh.newPage();
    p.on('pageerror', (e) => errors.push(e.message));
    await p.goto(`${server.url}/g/${live}`);
    await waitReady(p);
    await p.fill('#player-name', 'Browser');
    await p.click('#take-seat');
    await waitState(p, "s.seat === 'Y'");
    creator.room.send('start');
    await waitState(p, "s.phase === 'playing'");
    const rules = parseRules({ players: 2 });
    if (!rules.ok) throw new Error('rules');
    let pos = initialPosition(rules.value);
    const first = legalTurns(pos)[0];
    creator.room.send('turn', { ...first, version: creator.state.version });
    const played = applyEvent(pos, { type: 'turn', turn: first });
    if (!played.ok) throw new Error(played.error.message);
    pos = played.value.position;
    expect(pos.toMove).toBe('Y');
    await waitState(p, "s.moves === 1 && s.toMove === 'Y'");
    const port = server.port;
    await leaveAll([creator]);
    matchMaker.getLocalRoomById(live)?.onBeforeShutdown();
    await waitForText(p.locator('#net-banner'), /server is restarting/);
    await server.close();
    // The turn is made while no server runs: it waits, and goes out with its version once back.
    const turn = makeTurn(legalTurns(pos)[0], pos);
    await p.fill('#square-input', turn);
    await p.press('#square-input', 'Enter');
    server = await createServer({ port, host: '127.0.0.1', clientDir: CLIENT_DIST, store, graceSeconds: 5 });
    await waitState(p, "s.moves === 2 && s.seat === 'Y'", 30000);
    const after = applyEvent(pos, { type: 'turn', turn: legalTurns(pos)[0] });
    if (!after.ok) throw new Error(after.error.message);
    await waitState(p, `s.fen === ${JSON.stringify(makeFen(after.value.position))}`);
    // The live game's record, built in the page from the move list, downloads as JSON.
    const [download] = await Promise.all([p.waitForEvent('download'), p.click('#record-json')]);
    const stream = await download.createReadStream();
    let body = '';
    for await (const chunk of stream) body += String(chunk);
    const json = JSON.parse(body) as GameRecord;
    expect(json.events).toHaveLength(2);
    expect(json.rules.players).toBe(2);
    await fresh.close();
    expect(errors).toEqual([]);
  });
});
