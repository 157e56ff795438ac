/**
 * Types of the press (negotiation) modules. The wire protocol (members, channels, messages,
 * pacts, draw offers, history, reveal, rejections) lives in `@djambi/shared` and is re-exported
 * here; this file adds what only the server needs: room options and deliveries. Plain data only.
 */
import type { MemberId, PressRejection, PressServerMessage, PressServerMessages, PressVisibility } from '@djambi/shared';

export type {
  Betrayal,
  BetrayalAct,
  ChannelExistence,
  ChannelId,
  ChannelInfo,
  ChannelKind,
  ChannelView,
  DrawEvent,
  DrawOfferView,
  MemberId,
  PactEndReason,
  PactEvent,
  PactStatus,
  PactView,
  PressClientPayload,
  PressErrorCode,
  PressHistory,
  PressMessage,
  PressPage,
  PressPageRequest,
  PressPhase,
  PressRejection,
  PressReveal,
  PressServerMessage,
  PressServerMessages,
  PressVisibility,
  RevealChannel,
  RevealItem,
  SpectatorId,
} from '@djambi/shared';

/** The room options of the press (create options of the room). */
export interface PressRoomOptions {
  /** Default `hidden`. */
  readonly press_visibility: PressVisibility;
  /** Default true: private, group and spectator conversations are shown to everyone after the game. */
  readonly reveal_press_after_game: boolean;
}

/** One message for the room to `client.send(type, payload)` to each client in `to` (never empty). */
export type Delivery = {
  [K in PressServerMessage]: { readonly to: readonly MemberId[]; readonly type: K; readonly payload: PressServerMessages[K] };
}[PressServerMessage];

/** The answer to a press action: the deliveries to send, or the rejection for the sender. */
export type PressResult =
  | { readonly ok: true; readonly deliveries: Delivery[] /** Every active player accepted a draw: call `drawByAgreement`. */; readonly drawAgreed?: true }
  | { readonly ok: false; readonly error: PressRejection };
