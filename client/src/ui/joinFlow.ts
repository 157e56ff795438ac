/**
 * Joining the room: reclaim a stored seat without questions; in a game this browser has just
 * created through "Play against the computer", take the host's seat at once with its host
 * token; else watch. Take a seat with a name (or a colour) and, in a game this browser created,
 * its host token; a room that does not exist is fatal. A refusal shows as a sentence chosen by
 * its code, never the server's text.
 */
import type { Colour } from '@djambi/shared';
import { S } from '../i18n/strings.js';
import type { GameConnection } from '../net/connection.js';
import { forgetHostToken, loadHostToken, takeHostJoin } from '../net/seatStore.js';
import { saveName, savedName } from './prefs.js';

/** What a refused join says to the player, by its code. */
export function joinFailureText(code: string | undefined): string {
  if (code === 'no_free_seat' || code === 'seat_taken' || code === 'spectators_full') return S.game.full;
  if (code === 'game_started') return S.game.started;
  if (code === 'removed') return S.game.removedNoSeat;
  if (code === 'not_found') return S.game.unknown;
  return S.game.joinFailed;
}

export class JoinFlow {
  /** `joining` until the first join settles, and while a seat is being taken. */
  mode: 'spectator' | 'seated' | 'joining' = 'joining';

  constructor(
    private readonly conn: GameConnection,
    private readonly fatal: (text: string) => void,
    /** Called once a seat request settled (taken or not). */
    private readonly settled: () => void,
    /** No room with this code (it may be a finished game, in the archive). */
    private readonly gone: () => void = () => fatal(S.game.notFound),
  ) {}

  /** The first join. */
  async start(): Promise<void> {
    const code = this.conn.code;
    const hostToken = this.conn.storedSeat ? null : loadHostToken(code);
    if (hostToken && takeHostJoin(code) && (await this.joinAsHost(hostToken))) return;
    try {
      if (this.conn.storedSeat) {
        this.mode = 'seated';
        await this.conn.join({});
      } else {
        this.mode = 'spectator';
        await this.conn.join({ spectate: true, name: savedName().trim().slice(0, 24) || undefined });
      }
    } catch (e) {
      const err = e as { code?: string };
      if (err.code !== 'not_found' && this.mode === 'seated') {
        this.mode = 'spectator';
        await this.conn
          .join({ spectate: true, name: savedName().trim().slice(0, 24) || undefined })
          .catch((e2: { code?: string }) => (e2?.code === 'not_found' ? this.gone() : this.fatal(joinFailureText(e2?.code))));
      } else if (err.code === 'not_found') this.gone();
      else this.fatal(joinFailureText(err.code));
    }
  }

  /** Takes the host's seat with `hostToken` (the creator's own page); false when refused (then it watches as usual). */
  private async joinAsHost(hostToken: string): Promise<boolean> {
    this.mode = 'seated';
    try {
      await this.conn.join({ name: savedName().trim().slice(0, 24) || undefined, hostToken });
      forgetHostToken(this.conn.code);
      this.settled();
      return true;
    } catch (e) {
      if ((e as { code?: string }).code === 'not_found') {
        this.gone();
        return true;
      }
      return false;
    }
  }

  /** The seat came (or went). */
  seated(on: boolean): void {
    this.mode = on ? 'seated' : 'spectator';
  }

  /** Take a seat with the name typed in the join form. */
  async takeSeat(colour: Colour | undefined): Promise<void> {
    const nameInput = document.getElementById('player-name') as HTMLInputElement | null;
    const name = (nameInput?.value ?? savedName()).trim().slice(0, 24);
    saveName(name);
    const error = document.getElementById('join-error');
    if (error) error.textContent = '';
    this.mode = 'joining';
    const code = this.conn.code;
    const hostToken = loadHostToken(code) ?? undefined;
    try {
      await this.conn.rejoin({ name: name || undefined, colour, hostToken });
      if (hostToken) forgetHostToken(code);
    } catch (e) {
      const err = e as { code?: string };
      if (error) error.textContent = joinFailureText(err.code);
      this.mode = 'spectator';
      await this.conn.join({ spectate: true, name: name || undefined }).catch(() => undefined);
    }
    this.settled();
  }
}
