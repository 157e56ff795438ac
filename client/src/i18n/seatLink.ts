/**
 * English strings of "Continue on your phone" (`ui/seatLinkView.ts`): the one-time notice after
 * taking a seat, with the seat link and its QR code, and the page of a player the host removed.
 */

/** "Continue on your phone", in English. */
export const seatLinkEn = {
  title: 'Continue on your phone',
  intro: (colour: string): string => `You play ${colour}. To play this seat on another device, open this link there or scan the code.`,
  secret: 'Keep it secret: whoever opens it takes your seat.',
  qrLabel: 'QR code of your seat link',
  copy: 'Copy',
  close: 'Close',
  removed: 'The host removed you from this game; you are watching.',
};

/** The strings of the seat link notice. */
export type SeatLinkStrings = typeof seatLinkEn;
