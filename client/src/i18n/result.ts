/**
 * English strings of the result screen and the rematch (`ui/resultView.ts`). Names and colours
 * come in already written out (`S.colour`, the players' names).
 */
import type { DrawReason, PactEndReason } from '@djambi/shared';

const DRAWS: Record<DrawReason, string> = {
  no_legal_move: 'nobody can move',
  agreement: 'agreed by the players',
  no_progress: 'too long without progress',
  mutual_elimination: 'the last chiefs fell together',
};

const PACT_ENDS: Record<PactEndReason, string> = {
  declined: 'declined',
  withdrawn: 'withdrawn',
  left: 'a member left it',
  betrayed: 'betrayed',
  expired: 'expired',
  eliminated: 'a member was eliminated',
  game_over: 'the game ended',
};

/** How a player left the game, as the ranking says it. */
export type ResultHow = 'winner' | 'survivor' | 'killed' | 'encircled' | 'resigned' | 'time';

/** The result screen and the rematch, in English. */
export const resultEn = {
  title: 'Game over',
  close: 'Close',
  show: 'Result',
  showHint: 'Show the result screen again',
  /** The winner's name (its colour is a swatch beside it). */
  win: (name: string): string => `${name} wins`,
  draw: (reason: DrawReason): string => `Draw: ${DRAWS[reason] ?? reason}`,
  ranking: 'Ranking',
  rank: (n: number): string => `${n}.`,
  how: (how: ResultHow, by: string | null, move: number | null): string => {
    const on = move === null ? '' : ` on move ${move}`;
    switch (how) {
      case 'winner':
        return 'winner';
      case 'survivor':
        return 'still in the game';
      case 'killed':
        return `chief killed${by ? ` by ${by}` : ''}${on}`;
      case 'encircled':
        return `encircled${by ? ` by ${by}` : ''}${on}`;
      case 'resigned':
        return `resigned${on}`;
      case 'time':
        return `out of time${on}`;
    }
  },
  pactsTitle: 'Pacts and betrayals',
  noPacts: 'No pact was made in this game.',
  pact: (members: string, from: number | null, to: number | null, end: PactEndReason | null): string =>
    `Pact ${members}${from === null ? '' : `, from move ${from}`}${to === null ? '' : ` to move ${to}`}${end ? ` (${PACT_ENDS[end] ?? end})` : ''}`,
  betrayal: (traitor: string, victim: string, move: number, turn: string): string => `${traitor} betrayed ${victim} on move ${move} (${turn})`,
  replay: 'Replay',
  rematch: 'Rematch',
  accept: 'Accept the rematch',
  decline: 'Decline',
  offeredBy: (name: string): string => `${name} offers a rematch: same options, every player one colour further.`,
  accepted: (names: string): string => `Accepted: ${names}.`,
  declined: (names: string): string => `Declined: ${names}.`,
  waiting: (names: string, seconds: number): string => `Waiting for ${names} (${seconds} s); a seat nobody takes stays open.`,
  creating: 'Setting up the new game…',
  moving: 'Joining the new game…',
  created: 'The rematch is ready.',
  goToRematch: 'Go to the rematch',
  cancelled: 'Nobody accepted the rematch.',
  failed: 'The new game could not be created. Try again.',
};

/** The shape of the result strings (every language has them all). */
export type ResultStrings = typeof resultEn;
