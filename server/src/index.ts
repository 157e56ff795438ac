/** Entry point: `node server/dist/index.js` (PORT, HOST, GRACE_SECONDS, PUBLIC_URL from the environment). */
import { createServer, type RunningServer } from './app.js';

const port = Number(process.env.PORT ?? 2567);
const host = process.env.HOST || undefined;
const graceSeconds = process.env.GRACE_SECONDS ? Number(process.env.GRACE_SECONDS) : undefined;

function handleSignals(server: RunningServer): void {
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      server.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
}

createServer({ port, host, graceSeconds, publicUrl: process.env.PUBLIC_URL || undefined }).then(
  (server) => {
    console.log(`Djambi server listening on ${server.url} (invite links: /g/CODE)`);
    handleSignals(server);
  },
  (err: unknown) => {
    console.error('Djambi server failed to start:', err);
    process.exit(1);
  },
);
