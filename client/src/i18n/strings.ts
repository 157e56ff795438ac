/**
 * Every user-visible string of the client, in one place, ready for translation.
 * A translation is another object of type `Strings`; `setLocale` swaps it.
 */
import type { Colour, DrawReason, EliminationCause, Kind } from '@djambi/shared';

const COLOUR_NAMES: Record<Colour, string> = { R: 'Red', B: 'Blue', Y: 'Yellow', G: 'Green' };

const KIND_NAMES: Record<Kind, string> = {
  chief: 'Chief',
  assassin: 'Assassin',
  reporter: 'Reporter',
  diplomat: 'Diplomat',
  necromobile: 'Necromobile',
  militant: 'Militant',
};

/** One letter per kind, drawn on the pieces. */
const KIND_LETTERS: Record<Kind, string> = {
  chief: 'C',
  assassin: 'A',
  reporter: 'R',
  diplomat: 'D',
  necromobile: 'N',
  militant: 'M',
};

const DRAW_REASONS: Record<DrawReason, string> = {
  no_legal_move: 'no player can move',
  agreement: 'by agreement',
  no_progress: 'no progress for too long',
  mutual_elimination: 'the last players fell together',
};

const CAUSES: Record<EliminationCause, string> = {
  killed: 'chief killed',
  encircled: 'encircled',
  resigned: 'resigned',
};

/** English, the reference locale. */
export const en = {
  appName: 'Djambi',
  tagline: "Machiavelli's chessboard, for four players, online",
  colour: (c: Colour): string => COLOUR_NAMES[c],
  kind: (k: Kind): string => KIND_NAMES[k],
  kindLetter: (k: Kind): string => KIND_LETTERS[k],
  pieceLabel: (c: Colour, k: Kind, alive: boolean): string => (alive ? `${COLOUR_NAMES[c]} ${KIND_NAMES[k].toLowerCase()}` : `corpse (was ${COLOUR_NAMES[c]} ${KIND_NAMES[k].toLowerCase()})`),
  squareLabel: (sq: string, piece: string | null, maze: boolean): string =>
    `${sq}${maze ? ', the maze' : ''}${piece ? `: ${piece}` : ', empty'}`,

  nav: { home: 'Home', rules: 'Rules', back: 'Back' },
  notFound: 'Page not found.',
  loading: 'Loading…',

  home: {
    createTitle: 'New game',
    players: 'Players',
    playersOption: (n: number): string => (n === 4 ? '4 players' : n === 3 ? '3 players (Green is a hostage)' : '2 players (two armies each)'),
    visibility: 'Visibility',
    private: 'Private: only people with the link can join',
    public: 'Public: listed below for anyone to join or watch',
    clock: 'Clock',
    clockOff: 'No clock',
    clockOn: 'Play with a clock (running out of time resigns)',
    clockMinutes: 'Minutes per player',
    clockIncrement: 'Seconds added per turn',
    rulesTitle: 'Rule options',
    rulesHint: 'The defaults are the standard game.',
    create: 'Create game',
    creating: 'Creating…',
    createFailed: (why: string): string => `Could not create the game: ${why}`,
    joinTitle: 'Join a game',
    joinCode: 'Game code',
    joinPlaceholder: 'e.g. K7MPQ2',
    join: 'Join',
    badCode: 'A game code has 6 letters or digits.',
    publicTitle: 'Public games',
    publicEmpty: 'No public game right now. Create one!',
    publicFailed: 'Could not load the list of public games.',
    refresh: 'Refresh',
    roomPlayers: (n: number, max: number): string => `${n}/${max} seated`,
    roomWaiting: 'waiting for players',
    roomPlaying: 'in progress',
    roomFinished: 'finished',
    roomJoin: 'Join',
    roomWatch: 'Watch',
  },

  ruleOptions: {
    layout: { label: 'Starting layout', mirror: 'Mirror (assassins face each other)', chhobu_rotational: 'Rotational (as in chhobu)' },
    reporter: {
      label: 'Reporter',
      optional_single: 'May kill one adjacent enemy',
      mandatory_single: 'Must kill one adjacent enemy if any',
      all_adjacent: 'Kills every orthogonal neighbour',
    },
    self_kill: { label: 'Own pieces', false: 'Can never be killed', true: 'May be killed (never the own chief)' },
    maze_exit_order: {
      label: 'Leaving the maze',
      act_exit_place: 'Exit first, then place the chief',
      act_place_exit: 'Place the chief first, then exit',
    },
    encirclement: {
      label: 'Encirclement',
      group: 'Chief and its group walled in by corpses',
      literal_ring: 'Chief ringed by corpses',
      throne_access: 'No corpse-free path to the maze',
    },
    neutral_pieces_untouchable: { label: 'Frozen armies', true: 'Untouchable obstacles', false: 'May be killed or moved' },
    no_progress_rounds: { label: 'Draw after quiet rounds', hint: '0 turns the no-progress draw off' },
  },

  game: {
    code: (code: string): string => `Game ${code}`,
    connecting: 'Connecting…',
    notFound: 'This game does not exist or has ended.',
    yourName: 'Your name',
    namePlaceholder: 'Name shown to the other players',
    takeSeat: 'Take a free seat',
    takeColour: (c: Colour): string => `Sit as ${COLOUR_NAMES[c]}`,
    watch: 'Watch',
    seatsTitle: 'Seats',
    seatFree: 'free',
    seatYou: 'you',
    seatAway: (since: string): string => `away ${since}`,
    seatReconnecting: (since: string): string => `connection lost ${since} ago, may come back`,
    seatConnected: 'connected',
    seatHostage: 'hostage army',
    moveHere: 'Move here',
    askSwap: 'Ask to swap',
    acceptSwap: 'Swap',
    swapPending: 'swap asked',
    swapAsked: 'wants your seat',
    spectators: (n: number): string => (n === 1 ? '1 spectator' : `${n} spectators`),
    invite: 'Invite',
    copyLink: 'Copy invite link',
    copied: 'Link copied',
    qrLabel: 'QR code of the invite link',
    seatLink: 'Copy my seat link',
    seatLinkHint: 'Open this link on another device to move your seat there. Keep it secret.',
    start: 'Start the game',
    waitingForPlayers: (n: number): string => (n === 1 ? 'Waiting for 1 more player' : `Waiting for ${n} more players`),
    waitingForStart: 'Waiting for a player to start the game',
    resign: 'Resign',
    resignConfirm: 'Resign this game? Your chief dies and you are out.',
    offerDraw: 'Offer a draw',
    acceptDraw: 'Accept the draw',
    declineDraw: 'Decline',
    drawOffered: (c: Colour): string => `${COLOUR_NAMES[c]} offers a draw`,
    yes: 'Yes',
    no: 'No',
    cancel: 'Cancel',
    viewAs: 'View from',
    flipHint: 'Choose whose corner is at the bottom',
    rulesLink: 'Rules',
    spectating: 'You are watching',
  },

  status: {
    title: 'Status',
    toMove: (c: Colour, extra: boolean): string => `${COLOUR_NAMES[c]} to move${extra ? ' (ruler’s extra turn)' : ''}`,
    yourTurn: 'Your turn',
    yourTurnExtra: 'Your turn (extra turn as ruler)',
    ruler: 'Ruler',
    noRuler: 'nobody in power',
    control: 'Armies',
    controlledBy: (army: Colour, by: Colour): string => (army === by ? `${COLOUR_NAMES[army]}: own` : `${COLOUR_NAMES[army]}: held by ${COLOUR_NAMES[by]}`),
    frozen: (army: Colour): string => `${COLOUR_NAMES[army]}: frozen`,
    hostage: (army: Colour): string => `${COLOUR_NAMES[army]}: hostage`,
    gone: (army: Colour): string => `${COLOUR_NAMES[army]}: no pieces`,
    eliminated: 'Out',
    eliminatedEntry: (c: Colour, cause: EliminationCause, by: Colour | null): string =>
      `${COLOUR_NAMES[c]} (${CAUSES[cause]}${by && by !== c ? ` by ${COLOUR_NAMES[by]}` : ''})`,
    clocks: 'Clocks',
    resultWin: (c: Colour): string => `${COLOUR_NAMES[c]} wins`,
    resultDraw: (reason: DrawReason): string => `Draw: ${DRAW_REASONS[reason]}`,
    ranking: 'Ranking',
    notStarted: 'Not started',
    viewingPast: (ply: number, total: number): string => `Looking at move ${ply} of ${total}`,
    backToLive: 'Back to the live position',
  },

  prompt: {
    spectator: 'Watching.',
    notYourTurn: (c: Colour): string => `Waiting for ${COLOUR_NAMES[c]}.`,
    piece: 'Your turn: pick a piece.',
    destination: 'Pick a destination (or another piece).',
    placement: 'Place the victim: pick an empty square.',
    placementDisplaced: 'Place the displaced piece: pick an empty square.',
    placementCorpse: 'Place the corpse: pick an empty square.',
    exit: 'Leave the maze: pick an exit square.',
    reporter: 'The reporter may kill one neighbour: pick a victim or choose no kill.',
    reporterRequired: 'The reporter must kill: pick a victim.',
    confirm: 'Send this turn?',
    sending: 'Sending…',
    history: 'Looking at an earlier position.',
    gameOver: 'The game is over.',
    notStarted: 'The game has not started.',
    illegal: 'Not a legal choice here.',
    rejected: (why: string): string => `The server refused the turn: ${why}`,
  },

  controls: {
    undo: 'Undo',
    cancel: 'Cancel',
    confirm: 'Send',
    noKill: 'No kill',
    confirmToggle: 'Confirm turns before sending',
    sound: 'Sound on my turn',
    keyboardLabel: 'Type a square',
    keyboardPlaceholder: 'e.g. e5',
    keyboardHint: 'Type squares like e5 and press Enter; Backspace on an empty field undoes.',
    first: 'First position',
    prev: 'Previous move',
    next: 'Next move',
    last: 'Live position',
  },

  moves: {
    title: 'Moves',
    none: 'No moves yet.',
    pass: 'pass',
    resign: 'resigns',
    moveLabel: (n: number, text: string): string => `Move ${n}: ${text}`,
  },

  board: {
    label: 'Djambi board',
    description: (view: Colour): string => `Board seen from ${COLOUR_NAMES[view]}'s corner.`,
    lastMove: (text: string): string => `Last move: ${text}`,
    selectedSuffix: ' (selected)',
    optionSuffix: ' (can be chosen)',
  },

  net: {
    disconnected: 'Connection lost.',
    offline: 'Connection lost: you are offline. Waiting for the network…',
    reconnecting: (s: number): string => `Connection lost. Retrying in ${s} s…`,
    reconnectingNow: 'Reconnecting…',
    reconnected: 'Reconnected.',
    retryNow: 'Retry now',
    gaveUp: 'Could not reconnect. Reload the page to try again.',
    seatLost: 'Your seat was taken over from another device; you are watching.',
  },

  rulesPage: {
    title: 'How to play Djambi',
    intro:
      'Djambi ("Machiavelli\'s chessboard", Jean Anesto, 1975) is played by four on a 9×9 board. Each player commands an army of nine pieces from a corner. The aim: be the last chief alive.',
    boardTitle: 'The board and the maze',
    board:
      'The centre square, e5, is the maze. Only a chief may stop on it; every piece may cross it while it is empty. A living chief on the maze is in power: its player, the ruler, plays again after each other player.',
    movesTitle: 'Moving',
    moves:
      'On your turn you move one piece you control, in a straight line in any of the 8 directions, as far as the squares are empty (the militant only 1 or 2 squares). No jumping. Then the piece acts.',
    corpsesTitle: 'Corpses',
    corpses:
      'A killed piece is not removed: it becomes a corpse, turned face down, and blocks lines. Corpses belong to nobody. Only the necromobile moves them.',
    piecesTitle: 'The pieces',
    pieces: {
      chief: 'Moves like a queen and kills by moving onto an enemy; you then place the corpse on any empty square. May stop on the maze and take power.',
      assassin: 'Kills by moving onto an enemy; the corpse goes to the square the assassin came from.',
      reporter: 'Moves only onto empty squares, then may kill one enemy right next to it (not diagonally). The victim stays where it is.',
      diplomat: 'Kills nobody. Moves onto an enemy piece and places it, alive, on any empty square (a chief even on the maze).',
      necromobile: 'Kills nobody. Moves onto a corpse and places it on any empty square. Keeps its chief from being encircled.',
      militant: 'Moves 1 or 2 squares and kills by moving onto an enemy, placing its corpse. Can never enter the maze.',
    },
    turnTitle: 'A turn in several steps',
    turn:
      'After choosing the piece and its destination, the board asks for whatever the move needs: where to put the victim or the displaced piece, where to leave the maze, or whom the reporter kills (or "no kill").',
    powerTitle: 'Killing a chief, encirclement',
    power:
      'Kill a chief and you take over its whole army. A chief walled in by corpses (with no living necromobile) is encircled and dies; its army goes to the ruler, or freezes if nobody is in power.',
    endTitle: 'End of the game',
    end: 'The last player with a living chief wins. A player may resign; a draw can be agreed by all, or happens when nobody can move or after a long time without progress.',
    diagrams: {
      chief: 'Dots: where the chief can go. It kills the red-marked piece by moving onto it.',
      assassin: 'The assassin kills the red-marked piece; the corpse lands where the assassin started.',
      reporter: 'The reporter moves to the orange square, then may kill the red-marked neighbour.',
      diplomat: 'The diplomat moves onto the red-marked chief and puts it, alive, on an orange square.',
      necromobile: 'The necromobile moves onto the corpse and puts it on an orange square.',
      militant: 'Dots: the militant moves one or two squares in any direction.',
    },
    diagramMaze: 'The maze in the centre.',
  },

  chat: {
    title: 'Talk',
    soon: 'Table talk, private channels and pacts will appear here.',
  },

  title: {
    yourTurn: (code: string): string => `● Your turn — Djambi ${code}`,
    game: (code: string): string => `Djambi ${code}`,
    home: 'Djambi online',
    rules: 'Djambi rules',
  },

  errors: {
    generic: 'Something went wrong.',
  },

  time: {
    seconds: (n: number): string => `${n} s`,
    minutes: (n: number): string => `${n} min`,
    hours: (n: number): string => `${n} h`,
  },
};

/** The shape every locale has. */
export type Strings = typeof en;

/** The strings in use. A translation provides another `Strings` object and is selected here. */
export const S: Strings = en;
