/**
 * The share of one process's rooms each client may take. Every live room holds a ticket, taken
 * before its game is made or re-opened: `maxRooms` in all; of those, rooms nobody has sat at
 * (made and never joined, or played by bots alone) take at most `unseatedShare` of them, so the
 * rest is always there for games with players; and one address (an IPv6 client: its /64) holds
 * at most `unseatedPerAddress` of those. A ticket counts as seated from the first person to sit.
 */
import type { JoinErrorCode } from '../errors.js';

/** The limits (docs/PROTOCOL.md, "Limits"). */
export interface QuotaLimits {
  /** Live rooms in all. */
  readonly maxRooms: number;
  /** The share of `maxRooms` rooms nobody sat at may take (0..1). */
  readonly unseatedShare: number;
  /** Live rooms nobody sat at that one address may have made. */
  readonly unseatedPerAddress: number;
  /**
   * Live rooms nobody sat at with computer players (games of bots alone, or waiting for people):
   * the process's one bot worker plays them all, and past a few dozen every bot of every room
   * would play its weakest fallback.
   */
  readonly unseatedWithBots: number;
}

export const DEFAULT_QUOTA: Omit<QuotaLimits, 'maxRooms'> = Object.freeze({ unseatedShare: 0.5, unseatedPerAddress: 5, unseatedWithBots: 50 });

/** Why a room cannot be made or re-opened now. */
export interface QuotaRefusal {
  readonly code: JoinErrorCode;
  readonly message: string;
}

/** One live room's place in the quota. */
export class QuotaTicket {
  private released = false;

  constructor(
    private readonly quota: RoomQuota,
    /** The address that made the room (null: server code, a re-open, a rematch). */
    readonly creator: string | null,
    private isSeated: boolean,
    /** The room has computer players. */
    readonly bots: boolean,
  ) {}

  get seated(): boolean {
    return this.isSeated;
  }

  /** Somebody sat at the room: it leaves the unseated counts. */
  seat(): void {
    if (this.isSeated || this.released) return;
    this.isSeated = true;
    this.quota.forget(this);
  }

  /** The room is gone. */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.quota.drop(this);
  }
}

/** The tickets of one process. */
export class RoomQuota {
  private rooms = 0;
  private unseated = 0;
  private unseatedBots = 0;
  private readonly byCreator = new Map<string, number>();

  /** `exempt`: address keys with no per-address cap (the HTTP limits' exempt addresses, loopback by default). */
  constructor(
    readonly limits: QuotaLimits,
    private readonly exempt: ReadonlySet<string> = new Set(),
  ) {}

  /** Live rooms, and those nobody sat at. */
  get counts(): { readonly rooms: number; readonly unseated: number; readonly unseatedWithBots: number } {
    return { rooms: this.rooms, unseated: this.unseated, unseatedWithBots: this.unseatedBots };
  }

  /** Why no room at all may open now (`maxRooms` reached), or null: asked before a re-open loads its game. */
  full(): QuotaRefusal | null {
    return this.rooms >= this.limits.maxRooms ? { code: 'server_full', message: 'this server holds as many games as it can; try again later' } : null;
  }

  /** A ticket for a room (`seated`: a re-opened game people sat at; `bots`: it has computer players), or why not. */
  take(seated: boolean, maker: string | null, bots = false): QuotaTicket | QuotaRefusal {
    const creator = maker !== null && this.exempt.has(maker) ? null : maker;
    const { maxRooms, unseatedShare, unseatedPerAddress, unseatedWithBots } = this.limits;
    const full = this.full();
    if (full) return full;
    if (!seated) {
      if (this.unseated >= Math.floor(maxRooms * unseatedShare)) {
        return { code: 'server_full', message: 'this server keeps its other rooms for games with players; try again later' };
      }
      if (creator !== null && (this.byCreator.get(creator) ?? 0) >= unseatedPerAddress) {
        return {
          code: 'too_many_rooms',
          message: `${unseatedPerAddress} games made from your address wait for players: sit at one, or wait until they close`,
        };
      }
      if (bots && this.unseatedBots >= unseatedWithBots) {
        return { code: 'server_full', message: 'this server plays as many games of computer players nobody sits at as it can; try again later' };
      }
      this.unseated++;
      if (bots) this.unseatedBots++;
      if (creator !== null) this.byCreator.set(creator, (this.byCreator.get(creator) ?? 0) + 1);
    }
    this.rooms++;
    return new QuotaTicket(this, creator, seated, bots);
  }

  /** @internal A ticket left the unseated counts. */
  forget(ticket: QuotaTicket): void {
    this.unseated--;
    if (ticket.bots) this.unseatedBots--;
    const creator = ticket.creator;
    if (creator === null) return;
    const n = (this.byCreator.get(creator) ?? 1) - 1;
    if (n <= 0) this.byCreator.delete(creator);
    else this.byCreator.set(creator, n);
  }

  /** @internal A ticket was released. */
  drop(ticket: QuotaTicket): void {
    this.rooms--;
    if (!ticket.seated) this.forget(ticket);
  }
}

/**
 * The address that makes a room, as server code gives it to the room with the create options
 * (`POST /api/rooms`, the matchmaker's `onAuth`): an object, which no client's options (JSON or
 * msgpack: plain values) can hold, like `HostGrant`.
 */
export class CreatorGrant {
  constructor(readonly address: string) {}
}

/** The create option naming the address that makes the room. */
export function creatorOption(address: string): { readonly creator: CreatorGrant } {
  return { creator: new CreatorGrant(address) };
}

/** The creator named by create options, if server code named one. */
export function creatorOf(options: unknown): string | null {
  const c = options !== null && typeof options === 'object' ? (options as { creator?: unknown }).creator : undefined;
  return c instanceof CreatorGrant ? c.address : null;
}
