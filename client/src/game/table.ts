/**
 * The table around the board, headless: what the page should signal when the game moves on
 * (a sound, a short notice of a resignation or an elimination, a your-turn notification) and
 * what the draw banner shows. Fed with session views and the server's `draw` messages; no DOM,
 * tested in Node.
 */
import { COLOURS, type Colour, type EliminationCause, type PressServerMessage, type PressServerMessages } from '@djambi/shared';
import type { SessionView } from './session.js';
import type { GameSnapshot } from './snapshot.js';

/** The sounds the page plays (the your-turn beep is the turn signal's own). */
export const SOUND_CUES = ['move', 'kill', 'turn', 'chat'] as const;
export type SoundCue = (typeof SOUND_CUES)[number];

/** A short notice to everyone at the table. */
export interface TableNotice {
  readonly kind: 'resigned' | 'eliminated';
  readonly colour: Colour;
  readonly cause: EliminationCause;
}

/** What a new view calls for. */
export interface TableSignals {
  /** One sound at most, the most telling: the viewer's turn, else a kill, else a move. */
  readonly sound: SoundCue | null;
  readonly notices: readonly TableNotice[];
  /** It just became the viewer's turn. */
  readonly yourTurn: boolean;
}

const NOTHING: TableSignals = { sound: null, notices: [], yourTurn: false };

/**
 * Compares each view with the last: the entries replayed since, and whether it became the
 * viewer's turn. The first view (a load, a reload) signals nothing.
 */
export class TableWatcher {
  private seen = -1;
  private wasMyTurn = false;

  take(v: SessionView): TableSignals {
    if (!v.snapshot) return NOTHING;
    const first = this.seen < 0;
    const from = first || v.replayed < this.seen ? v.replayed : this.seen;
    this.seen = v.replayed;
    const yourTurn = v.myTurn && !this.wasMyTurn && !first;
    this.wasMyTurn = v.myTurn;
    if (first) return NOTHING;
    const added = v.entries.slice(from, v.replayed);
    const notices: TableNotice[] = [];
    let kill = false;
    let others = false;
    for (const e of added) {
      const gaveUp = e.record.kind === 'resign' || e.record.kind === 'timeout';
      for (const fx of e.effects) {
        if (fx.type === 'eliminated') notices.push({ kind: gaveUp || fx.cause === 'resigned' ? 'resigned' : 'eliminated', colour: fx.colour, cause: fx.cause });
        else if (fx.type === 'kill' && fx.by >= 0) kill = true;
      }
      // The viewer's own move makes no sound: the viewer just played it.
      if (e.record.kind === 'turn' && e.record.colour !== v.mySeat) others = true;
    }
    const sound: SoundCue | null = yourTurn ? 'turn' : added.length === 0 ? null : kill ? 'kill' : others ? 'move' : null;
    return { sound, notices, yourTurn };
  }
}

/** What the draw banner shows. */
export type DrawBanner =
  | { readonly kind: 'none' }
  | {
      readonly kind: 'offer';
      readonly id: number;
      readonly by: Colour;
      readonly accepted: readonly Colour[];
      /** Active players who have not accepted yet. */
      readonly waiting: readonly Colour[];
      /** The viewer is an active player who may still accept or decline. */
      readonly canAnswer: boolean;
    }
  | { readonly kind: 'declined'; readonly id: number; readonly by: Colour; readonly offerBy: Colour };

/**
 * The draw offer as the banner shows it: the synced offer while it is open, then who declined
 * it (from the server's `draw { event: "declined" }`) until dismissed or a new offer opens.
 */
export class DrawWatch {
  private declined: { id: number; by: Colour; offerBy: Colour } | null = null;

  /** Take in a press message (decoded with its shared schema); true when it was a decline that changes the banner. */
  receive<K extends PressServerMessage>(type: K, payload: PressServerMessages[K]): boolean {
    if (type !== 'draw') return false;
    const { event, by, offer } = payload as PressServerMessages['draw'];
    if (event !== 'declined' || !by) return false;
    this.declined = { id: offer.id, by, offerBy: offer.by };
    return true;
  }

  /** Hide the "declined" line. */
  dismiss(): void {
    this.declined = null;
  }

  view(snap: GameSnapshot | null, mySeat: Colour | null): DrawBanner {
    if (snap?.phase !== 'playing') return { kind: 'none' };
    const offer = snap.drawOffer;
    if (offer?.by) {
      if (this.declined && this.declined.id !== offer.id) this.declined = null;
      const accepted = COLOURS.filter((c) => offer.accepted.includes(c));
      const waiting = snap.active.filter((c) => !accepted.includes(c));
      const canAnswer = !!mySeat && snap.active.includes(mySeat) && !accepted.includes(mySeat);
      return { kind: 'offer', id: offer.id, by: offer.by, accepted, waiting, canAnswer };
    }
    return this.declined ? { kind: 'declined', ...this.declined } : { kind: 'none' };
  }
}
