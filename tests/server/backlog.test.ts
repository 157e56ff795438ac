/**
 * The server's listen queue is LISTEN_BACKLOG (capped by the kernel's somaxconn), not Node's 511:
 * a crowd of clients coming back after a process died must not have its SYNs dropped. `ss`
 * shows a listening socket's queue size in its Send-Q column.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { LISTEN_BACKLOG } from '../../server/src/app.js';
import { requireBinary } from '../support/nginx.js';
import { serverForTests } from './helpers.js';

const SS = '/usr/bin/ss';
const server = serverForTests();

(requireBinary(SS, 'listen backlog', 'backlog.test.ts') ? test : test.skip)(
  'the listening socket queues LISTEN_BACKLOG connections (or somaxconn, if lower)',
  () => {
    const port = server().port;
    const line = execFileSync(SS, ['-Hltn', `sport = :${port}`], { encoding: 'utf8' })
      .trim()
      .split('\n')[0]!;
    const queue = Number(line.split(/\s+/)[2]);
    const somaxconn = Number(readFileSync('/proc/sys/net/core/somaxconn', 'utf8'));
    expect(queue).toBe(Math.min(LISTEN_BACKLOG, somaxconn));
    expect(queue).toBeGreaterThan(511);
  },
);
