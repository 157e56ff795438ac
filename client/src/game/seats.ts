/** A game's armies that nobody sits at, as its rules set them out (the seats are `seatsOf(rules)`). */
import { COLOURS, controllerOf, initialPosition, type Colour, type Rules } from '@djambi/shared';

/** The armies nobody sits at but that start as hostages (Green with three players on the square board, hex5's hostage seat). */
export function hostageArmies(rules: Rules): Colour[] {
  const start = initialPosition(rules);
  return COLOURS.filter((c) => controllerOf(start, c) === 'hostage');
}
