/**
 * A lightweight client of the raw Colyseus 0.16 protocol, for the load generator: HTTP
 * matchmaking, then a WebSocket; the JOIN_ROOM handshake is acknowledged, ROOM_DATA messages are
 * msgpack (type string, then payload), and state frames (ROOM_STATE, ROOM_STATE_PATCH) are
 * counted but never decoded. One such client costs a fraction of a colyseus.js one.
 */
import { Packr, unpack } from '@colyseus/msgpackr';
import WebSocket from 'ws';

/** Protocol codes of Colyseus 0.16 (`@colyseus/core` Protocol). */
export const JOIN_ROOM = 10;
export const ERROR = 11;
export const LEAVE_ROOM = 12;
export const ROOM_DATA = 13;
export const ROOM_STATE = 14;
export const ROOM_STATE_PATCH = 15;

/** What the matchmaker answers: the seat reservation. */
export interface Reservation {
  readonly sessionId: string;
  readonly room: { readonly roomId: string; readonly processId: string; readonly publicAddress?: string };
}

/** Asks the matchmaker for a seat (`create/NAME` or `joinById/ROOM_ID`); throws with its error. */
export async function matchmake(httpBase: string, method: 'create' | 'joinById', target: string, options: unknown): Promise<Reservation> {
  const res = await fetch(`${httpBase}/matchmake/${method}/${target}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(options),
  });
  const text = await res.text();
  let body: Reservation & { error?: unknown; code?: number };
  try {
    body = JSON.parse(text);
  } catch {
    // Not the matchmaker's answer (e.g. nginx's 502 page): its status and text say who refused.
    throw new Error(
      `matchmake ${method} ${target}: ${res.status} ${text
        .replace(/<[^>]*>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim()
        .slice(0, 200)}`,
    );
  }
  if (body.error || !res.ok) {
    const error = typeof body.error === 'string' ? body.error : JSON.stringify(body.error ?? '');
    throw new Error(`matchmake ${method} ${target}: ${res.status} ${body.code ?? ''} ${error}`);
  }
  return body;
}

const packr = new Packr({ useRecords: false });

/** Reads a msgpack string (fixstr, str8, str16) at `offset`; null when there is none. */
function readString(buf: Buffer, offset: number): { value: string; end: number } | null {
  const b = buf[offset];
  let len: number;
  let start: number;
  if ((b & 0xe0) === 0xa0) {
    len = b & 0x1f;
    start = offset + 1;
  } else if (b === 0xd9) {
    len = buf[offset + 1];
    start = offset + 2;
  } else if (b === 0xda) {
    len = buf.readUInt16BE(offset + 1);
    start = offset + 3;
  } else return null;
  return { value: buf.toString('utf8', start, start + len), end: start + len };
}

/** The bytes of a ROOM_DATA message as colyseus.js sends it: code, msgpack type, msgpack payload. */
export function roomData(type: string, message?: unknown): Buffer {
  const name = Buffer.from(type, 'utf8');
  const head = Buffer.from([ROOM_DATA, 0xa0 | name.length, ...name]);
  return message === undefined ? head : Buffer.concat([head, packr.pack(message)]);
}

/** Counters of one connection. */
export interface FrameCounts {
  /** Every frame received. */
  frames: number;
  /** ROOM_STATE_PATCH frames. */
  patches: number;
  /** ROOM_STATE frames (the full state, once after the join). */
  states: number;
  /** ROOM_DATA frames. */
  messages: number;
  bytes: number;
}

/** One raw connection to a room. */
export class RawConnection {
  readonly counts: FrameCounts = { frames: 0, patches: 0, states: 0, messages: 0, bytes: 0 };
  /** Called on every ROOM_STATE_PATCH (not decoded), with its size in bytes. */
  onPatch: (bytes: number) => void = () => undefined;
  /** Called on the ROOM_STATE frame (the full state, not decoded). */
  onState: () => void = () => undefined;
  /** Called on every ROOM_DATA message, with its type; `payload()` decodes it on demand. */
  onMessage: (type: string, payload: () => unknown) => void = () => undefined;
  /** Called once when the socket closes. */
  onClose: (code: number) => void = () => undefined;
  closed = false;

  private constructor(
    private readonly ws: WebSocket,
    readonly sessionId: string,
    readonly roomId: string,
  ) {}

  /** Opens the WebSocket of a reservation and resolves once the room has confirmed the join. */
  static open(wsBase: string, r: Reservation, timeoutMs = 30_000): Promise<RawConnection> {
    const url = `${wsBase}/${r.room.processId}/${r.room.roomId}?sessionId=${r.sessionId}`;
    const ws = new WebSocket(url, { perMessageDeflate: false });
    const conn = new RawConnection(ws, r.sessionId, r.room.roomId);
    return new Promise((resolve, reject) => {
      let joined = false;
      const timer = setTimeout(() => {
        ws.terminate();
        reject(new Error(`join of ${r.room.roomId} timed out`));
      }, timeoutMs);
      ws.on('message', (data: Buffer) => {
        const c = conn.counts;
        c.frames++;
        c.bytes += data.length;
        const code = data[0];
        if (code === ROOM_STATE_PATCH) {
          c.patches++;
          conn.onPatch(data.length);
        } else if (code === ROOM_STATE) {
          c.states++;
          conn.onState();
        } else if (code === ROOM_DATA) {
          c.messages++;
          const type = readString(data, 1);
          if (type) conn.onMessage(type.value, () => (data.length > type.end ? unpack(data.subarray(type.end)) : undefined));
        } else if (code === JOIN_ROOM && !joined) {
          joined = true;
          ws.send(Buffer.from([JOIN_ROOM])); // the acknowledgement the room waits for
          clearTimeout(timer);
          resolve(conn);
        } else if (code === ERROR) {
          clearTimeout(timer);
          reject(new Error(`room ${r.room.roomId} refused the connection`));
        }
      });
      ws.on('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
      ws.on('close', (code) => {
        conn.closed = true;
        clearTimeout(timer);
        if (!joined) reject(new Error(`room ${r.room.roomId} closed the connection (${code})`));
        conn.onClose(code);
      });
    });
  }

  /** Sends a ROOM_DATA message. */
  send(type: string, message?: unknown): void {
    if (!this.closed) this.ws.send(roomData(type, message));
  }

  /** Sends pre-encoded bytes. */
  sendBytes(bytes: Buffer): void {
    if (!this.closed) this.ws.send(bytes);
  }

  /** Leaves the room on purpose (LEAVE_ROOM, as colyseus.js's `leave(true)`); resolves once closed. */
  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.ws.terminate(), 5_000);
      this.ws.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
      this.ws.send(Buffer.from([LEAVE_ROOM]));
    });
  }
}

/**
 * Where the WebSocket of a reservation goes, as colyseus.js builds it: the room's process's
 * `publicAddress` (host[:port][/prefix], e.g. nginx's per-replica path) when it has one, with the
 * scheme of `httpBase`; else `httpBase` itself.
 */
export function wsBaseOf(httpBase: string, r: Reservation): string {
  const scheme = httpBase.startsWith('https:') ? 'wss' : 'ws';
  return r.room.publicAddress ? `${scheme}://${r.room.publicAddress}` : httpBase.replace(/^http/, 'ws');
}

/** Joins a room through the matchmaker and opens its connection. */
export async function joinRaw(httpBase: string, method: 'create' | 'joinById', target: string, options: unknown): Promise<RawConnection> {
  const r = await matchmake(httpBase, method, target, options);
  return RawConnection.open(wsBaseOf(httpBase, r), r);
}
