/**
 * The rematch of a finished game (docs/PROTOCOL.md, "Rematch"): the seated players of a game
 * that is over offer, accept or decline a new game with the same options, each player one
 * colour further in turn order. The server judges every answer; these are the shapes both sides
 * check.
 */
import * as v from 'valibot';
import type { Colour } from '../types.js';
import { ColourSchema } from './game.js';
import { message, type Output } from './schema.js';

/** Seconds the players have to answer an offer; then the accepters' game starts with the other seats free. */
export const REMATCH_SECONDS = 60;

/** What a player says: open the offer (or accept the open one), accept it, or decline it. */
export const REMATCH_ACTIONS = ['offer', 'accept', 'decline'] as const;
/** A rematch answer. */
export type RematchAction = (typeof REMATCH_ACTIONS)[number];

/** `rematch { action }`: a seated player of a finished game answers (or opens) the rematch offer. */
export const RematchMessage = message({ action: v.picklist(REMATCH_ACTIONS, '"action" must be "offer", "accept" or "decline"') });
/** A checked `rematch` message. */
export type RematchMessage = Output<typeof RematchMessage>;

/**
 * Where an offer stands: `open` (answers awaited until `deadline`), `creating` (the new game is
 * being set up), `created` (its code is known), `cancelled` (nobody accepted), `failed` (the new
 * game could not be created).
 */
export const REMATCH_STATUSES = ['open', 'creating', 'created', 'cancelled', 'failed'] as const;
/** The status of a rematch offer. */
export type RematchStatus = (typeof REMATCH_STATUSES)[number];

const colours = v.array(ColourSchema);
/**
 * `rematch_state`: to everyone in the room whenever the offer changes (and to each newcomer).
 * `asked`: the seats whose players answer (bots accept at once and are not asked); `code`: the
 * new game, once `created`; `open`: its seats left free (their players declined or did not answer).
 */
export const RematchStateMessage = v.object({
  status: v.picklist(REMATCH_STATUSES),
  by: ColourSchema,
  asked: colours,
  accepted: colours,
  declined: colours,
  /** Server epoch ms when the offer closes. */
  deadline: v.number(),
  code: v.nullable(v.string()),
  open: colours,
});
/** A `rematch_state` message. */
export type RematchStateMessage = Output<typeof RematchStateMessage>;

/** `rematch_seat { code, colour, seatKey }`: to an accepter only, its seat in the new game. */
export const RematchSeatMessage = v.object({ code: v.string(), colour: ColourSchema, seatKey: v.string() });
/** A `rematch_seat` message. */
export type RematchSeatMessage = Output<typeof RematchSeatMessage>;

/** The server's rematch messages and their schemas. */
export const REMATCH_SERVER_SCHEMAS = { rematch_state: RematchStateMessage, rematch_seat: RematchSeatMessage } as const;
/** The names of the server's rematch messages. */
export const REMATCH_SERVER_MESSAGES = Object.keys(REMATCH_SERVER_SCHEMAS) as (keyof typeof REMATCH_SERVER_SCHEMAS)[];

/** The colour a player of seat `colour` takes in the rematch: the next one of `seats` (turn order), wrapping. */
export function rematchColour(colour: Colour, seats: readonly Colour[]): Colour {
  const at = seats.indexOf(colour);
  return seats[(at + 1) % seats.length];
}
