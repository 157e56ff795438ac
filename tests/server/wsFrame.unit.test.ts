/**
 * The patch's WebSocket frame, built once per patch (internals.ts `patchSender`), is byte for byte
 * the frame `ws` would make of the same payload, at every length class of the header.
 */
import WebSocket from 'ws';

/** `ws`'s own framing (`Sender.frame`, exported by `ws` as `WebSocket.Sender`). */
const Sender = (WebSocket as unknown as { Sender: { frame(data: Buffer, options: object): Buffer[] } }).Sender;
import { binaryFrame } from '../../server/src/rooms/internals.js';

const wsFrame = (payload: Buffer): Buffer => Buffer.concat(Sender.frame(payload, { fin: true, mask: false, opcode: 2, readOnly: false, rsv1: false }));

test.each([0, 1, 27, 125, 126, 127, 4000, 65535, 65536, 200_000])('a payload of %i bytes', (n) => {
  const payload = Buffer.alloc(n);
  for (let i = 0; i < n; i++) payload[i] = (i * 31 + 7) & 0xff;
  expect(binaryFrame(payload).equals(wsFrame(payload))).toBe(true);
});
