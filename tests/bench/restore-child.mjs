/**
 * The server of `npm run bench:restore`, in its own process: opens the store the parent filled,
 * starts a server on it (which restores every unfinished game at boot) and prints one JSON line
 * with what the restore did and the CPU time of the server start.
 *
 *   node tests/bench/restore-child.mjs dist|src <database url>
 *
 * `dist` runs the compiled server (`npm run build -w shared -w server`, what `npm start` runs);
 * `src` runs the sources and must be started with `--import tsx` (tsx keeps function names, a
 * `defineProperty` per nested closure, so it is slower than production).
 */
const [base, databaseUrl] = process.argv.slice(2);
if ((base !== 'dist' && base !== 'src') || !databaseUrl) {
  console.error('usage: restore-child.mjs dist|src <database url>');
  process.exit(2);
}
const { createServer } = await import(`../../server/${base}/app.js`);
const { openStore } = await import(`../../server/${base}/store/open.js`);
const store = await openStore({ databaseUrl });
const cpu = process.cpuUsage();
const server = await createServer({ port: 0, host: '127.0.0.1', clientDir: '/nonexistent', store });
const used = process.cpuUsage(cpu);
const r = server.restored;
const line = JSON.stringify({ restored: r.restored, failed: r.failed, ms: r.ms, startCpuMs: (used.user + used.system) / 1000 });
await server.close();
await store.close();
// Exit once the line is written (stdout is a pipe to the parent; `exit` does not wait for it).
process.stdout.write(`${line}\n`, () => process.exit(0));
