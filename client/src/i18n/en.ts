/**
 * English, the reference locale: the strings of the game page and of every page's frame; the
 * home, rules and replay pages' own strings are in `enPages.ts`, a chunk the game page does not
 * load. Each other language (fr.ts, es.ts, ru.ts, ko.ts, ar.ts) is one object of the whole
 * shape, `Strings`, loaded on demand.
 */
import type { Colour, DrawReason, EliminationCause, Kind } from '@djambi/shared';
import type { PageStrings } from './enPages.js';
import { formatters } from './format.js';
import { seatLinkEn } from './seatLink.js';
import { resultEn } from './result.js';

const f = formatters('en');

const COLOUR_NAMES: Record<Colour, string> = { R: 'Red', B: 'Blue', Y: 'Yellow', G: 'Green', P: 'Purple', W: 'White' };

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
  tagline: "Machiavelli's chessboard, for two to six players, online",
  colour: (c: Colour): string => COLOUR_NAMES[c],
  kind: (k: Kind): string => KIND_NAMES[k],
  kindLetter: (k: Kind): string => KIND_LETTERS[k],
  pieceLabel: (c: Colour, k: Kind, alive: boolean): string =>
    alive ? `${COLOUR_NAMES[c]} ${KIND_NAMES[k].toLowerCase()}` : `corpse (was ${COLOUR_NAMES[c]} ${KIND_NAMES[k].toLowerCase()})`,
  squareLabel: (sq: string, piece: string | null, maze: boolean): string => `${sq}${maze ? ', the maze' : ''}${piece ? `: ${piece}` : ', empty'}`,

  nav: { home: 'Home', rules: 'Rules', back: 'Back' },
  /** The language picker in the page header. */
  language: 'Language',
  notFound: 'Page not found.',
  loading: 'Loading…',

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
    /** `ago` is a relative time (`time.ago`): "connection lost 5 minutes ago". */
    seatReconnecting: (ago: string): string => `connection lost ${ago}, may come back`,
    seatConnected: 'connected',
    seatBot: 'computer',
    seatStandIn: 'away, bot standing in',
    seatHostage: 'hostage army',
    moveHere: 'Move here',
    askSwap: 'Ask to swap',
    acceptSwap: 'Swap',
    swapPending: 'swap asked',
    swapAsked: 'wants your seat',
    seatReady: 'ready',
    imReady: "I'm ready",
    notReady: 'Not ready after all',
    readyCount: (ready: number, total: number): string => `${ready} of ${total} ready`,
    spectators: (n: number): string => f.plural(n, { one: '# spectator', other: '# spectators' }),
    invite: 'Invite',
    copyLink: 'Copy invite link',
    copied: 'Link copied',
    qrLabel: 'QR code of the invite link',
    seatLink: 'Copy my seat link',
    seatLinkHint: 'Open this link on another device to move your seat there. Keep it secret.',
    start: 'Start the game',
    waitingForPlayers: (n: number): string => f.plural(n, { one: 'Waiting for # more player', other: 'Waiting for # more players' }),
    waitingForStart: 'Waiting for a player to start the game',
    hostBadge: 'host',
    hostIs: (name: string): string => `Host: ${name}`,
    youHost: 'You are the host: you start the game and may remove players before it.',
    waitingForHost: (name: string): string => `Waiting for ${name} to start the game`,
    waitingForHostSeat: 'Waiting for the host to take a seat and start the game',
    youCreated: 'You created this game: take a seat to host it',
    removePlayer: 'Remove',
    removePlayerLabel: (name: string): string => `Remove ${name} from the table`,
    removeConfirm: (name: string): string => `Remove ${name} from the table? Their seat becomes free.`,
    spectatorList: 'Spectators',
    watchingAs: (name: string): string => `You watch as ${name}`,
    spectatorName: 'Your name as a spectator',
    rename: 'Change',
    fullTitle: 'This game is full',
    full: 'This game is full: watch it, or create your own.',
    startedTitle: 'This game has started',
    started: 'This game has already started: watch it, or create your own.',
    watchIt: 'Watch this game',
    createOwn: 'Create your own game',
    unknownTitle: 'No such game',
    unknown: 'There is no game with this code. Check the link, or go home to create one.',
    joinFailed: 'You could not join this game.',
    removedNoSeat: 'The host removed you from this game: you may watch it, but not take a seat again.',
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
    toMove: (name: string, extra: boolean): string => `${name} to move${extra ? ' (ruler’s extra turn)' : ''}`,
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
    eliminatedEntry: (name: string, cause: EliminationCause, by: string | null): string => `${name} (${CAUSES[cause]}${by ? ` by ${by}` : ''})`,
    /** A player whose clock ran out (the engine records it as a resignation). */
    eliminatedOnTime: (name: string): string => `${name} (out of time)`,
    clocks: 'Clocks',
    resultWin: (name: string): string => `${name} wins`,
    resultDraw: (reason: DrawReason): string => `Draw: ${DRAW_REASONS[reason]}`,
    ranking: 'Ranking',
    notStarted: 'Not started',
    viewingPast: (ply: number, total: number): string => `Looking at move ${ply} of ${total}`,
    backToLive: 'Back to the live position',
  },

  prompt: {
    spectator: 'Watching.',
    notYourTurn: (name: string): string => `Waiting for ${name}.`,
    piece: 'Your turn: pick a piece.',
    destination: 'Pick a destination (or another piece).',
    placement: 'Place the victim: pick an empty square.',
    placementDisplaced: 'Place the displaced piece: pick an empty square.',
    placementCorpse: 'Place the corpse: pick an empty square.',
    exit: 'Leave the maze: pick an exit square.',
    reporter: 'The reporter may kill one neighbour: pick a victim or choose no kill.',
    reporterRequired: 'The reporter must kill: pick a victim.',
    confirm: 'Send this turn?',
    breaksPact: (names: readonly string[]): string => `This turn breaks your pact with ${f.list(names)}. Send it anyway?`,
    sending: 'Sending…',
    reconnecting: 'Reconnecting: your turn will be sent',
    linkDown: 'Reconnecting… You may play: your turn is sent when the link is back',
    history: 'Looking at an earlier position.',
    gameOver: 'The game is over.',
    notStarted: 'The game has not started.',
    illegal: 'Not a legal choice here.',
    rejected: (why: string): string => `The server refused the turn: ${why}`,
    refused: (why: string): string => `Refused: ${why}`,
  },

  controls: {
    undo: 'Undo',
    cancel: 'Cancel',
    confirm: 'Send',
    noKill: 'No kill',
    confirmToggle: 'Confirm turns before sending',
    sound: 'Sounds (moves, kills, your turn, messages)',
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
    /** Link to the game record as text (docs/NOTATION.md). */
    record: 'Game record (text)',
    none: 'No moves yet.',
    pass: 'pass',
    resign: 'resigns',
    timeout: 'out of time',
    moveLabel: (n: number, text: string): string => `Move ${f.number(n)}: ${text}`,
    recordJson: 'Game record (JSON)',
    replay: 'Replay',
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
    /** The server said it restarts (or the game moved to another server): not an error. */
    restarting: 'The server is restarting, reconnecting…',
    /** The room closed after an internal error (close code 4101): its game re-opens from the log. */
    reopening: 'The game is reopening after a server error, reconnecting…',
    reconnected: 'Reconnected.',
    notSent: 'Not connected: that was not sent. Try again when the connection is back.',
    retryNow: 'Retry now',
    gaveUp: 'Could not reconnect. Reload the page to try again.',
    seatLost: 'Your seat was taken over from another device; you are watching.',
  },

  press: {
    title: 'Talk',
    headerLink: 'Talk',
    unread: (n: number): string => f.plural(n, { one: '# unread message', other: '# unread messages' }),
    connecting: 'Joining the table talk…',
    tabsLabel: 'Conversations',
    table: 'Table',
    spectators: 'Spectators',
    reveal: 'After the game',
    privateWith: (names: string): string => `Private conversation with ${names}`,
    groupWith: (names: string): string => `Group with ${names}`,
    empty: 'No messages yet.',
    earlier: (n: number): string => f.plural(n, { one: 'Show # earlier line', other: 'Show # earlier lines' }),
    loadOlder: 'Load older messages',
    loadingOlder: 'Loading older messages…',
    youTag: ' (you)',
    muteShort: 'Mute',
    mute: (name: string): string => `Mute ${name}: hide their messages here, for you only`,
    unmute: (name: string): string => `Unmute ${name}`,
    spectatorsGroup: 'the spectators',
    hiddenFrom: (n: number, name: string): string => f.plural(n, { one: `# message from ${name} hidden`, other: `# messages from ${name} hidden` }),
    names: (names: readonly string[]): string => f.list(names, 'unit'),
    othersLine: (lines: readonly string[]): string => `Other conversations: ${lines.join('; ')}`,
    spectator: 'Spectator',
    /** The default name the server gives a spectator who chose none ("Spectator 3"). */
    spectatorN: (n: number): string => `Spectator ${f.number(n)}`,
    placeholder: (where: string): string => `Write to ${where}…`,
    placeholderTable: 'Write to the table…',
    placeholderSpectators: 'Write to the spectators…',
    send: 'Send',
    counter: (n: number, max: number): string => `${n}/${max}`,
    counterLabel: (n: number, max: number): string => `${n} of ${max} characters`,
    tooLong: (max: number): string => `At most ${max} characters.`,
    readOnlyTable: 'Spectators read the table; they talk in the Spectators tab.',
    closed: 'This conversation is closed.',
    notActive: 'You are out of the game: you can read this conversation but no longer write in it.',
    talkTo: 'Message',
    talkToLabel: (name: string): string => `Talk privately with ${name}`,
    newGroup: 'New group',
    groupHint: 'Choose at least two other players.',
    openGroup: 'Open the group',
    opening: 'Opening…',
    existsLine: (names: string): string => `${names} talk privately`,
    dismiss: 'Dismiss',
    rateLimited: (seconds: number): string => `Too fast: wait ${seconds} s and try again.`,
    errors: {
      message_too_long: 'The message is too long.',
      empty_message: 'The message is empty.',
      bad_text: 'The message contains characters that cannot be sent.',
      not_allowed: 'You cannot write here.',
      not_member: 'You are not in this conversation.',
      no_such_channel: 'This conversation does not exist.',
      game_not_started: 'Private talk and pacts open when the game starts.',
      game_over: 'The game is over.',
      not_active: 'That player is out of the game.',
      not_seated: 'Only seated players can do that.',
      channel_full: 'This conversation is full.',
      author_limit: 'You have posted as many messages here as one person may in a game.',
      bad_members: 'Choose players of this game.',
      pact_exists: 'These players already have a pact.',
      too_many_pacts: 'Too many pacts are waiting for answers.',
      pact_closed: 'This pact is over for you.',
      already_answered: 'You have already answered.',
      no_such_pact: 'There is no such pact.',
    } as Record<string, string>,
    refused: (why: string): string => `Refused: ${why}`,
  },

  pacts: {
    title: 'Pacts',
    none: 'No pacts.',
    explain: 'A pact is a promise of non-aggression: no kill, no diplomat move against each other, no encircling. Breaking it is allowed, and recorded.',
    /** Members of a pact, e.g. "Ada · Gus". */
    members: (names: readonly string[]): string => names.join(' · '),
    /** A list of details, e.g. "3 rounds, secret". */
    list: (items: readonly string[]): string => items.filter(Boolean).join(', '),
    line: (members: string, details: string): string => `${members}: ${details}`,
    invitationLine: (proposer: string, members: string, terms: string): string => `${proposer} proposes a pact: ${members} (${terms})`,
    waitingLine: (members: string, waiting: string, terms: string): string => `${members}: waiting for ${waiting} (${terms})`,
    endedCount: (n: number): string => `Ended (${n})`,
    inForce: 'in force',
    rounds: (n: number | null): string => (n === null ? 'no time limit' : f.plural(n, { one: '# round', other: '# rounds' })),
    roundsLeft: (n: number): string => f.plural(n, { one: '# round left', other: '# rounds left' }),
    announced: 'announced to the table',
    secret: 'secret',
    broken: 'broken',
    notBound: 'you are no longer bound',
    accept: 'Accept',
    decline: 'Decline',
    withdraw: 'Withdraw',
    leave: 'Leave',
    leaveLabel: (names: string): string => `Leave the pact with ${names}`,
    propose: 'Propose a pact',
    proposeWith: 'With',
    proposeRounds: 'Rounds',
    proposeRoundsHint: 'empty: until someone leaves',
    proposeAnnounce: 'Announce it to the table once in force',
    proposeSubmit: 'Propose',
    proposeNeedsOne: 'Choose at least one player.',
    endReason: {
      declined: 'declined',
      withdrawn: 'withdrawn',
      left: 'left',
      betrayed: 'betrayed',
      expired: 'expired',
      eliminated: 'a member left the game',
      game_over: 'the game ended',
    } as Record<string, string>,
    event: {
      proposed: (by: string, members: string): string => `${by} proposes a pact: ${members}.`,
      accepted: (by: string, members: string): string => `${by} accepts the pact ${members}.`,
      declined: (by: string, members: string): string => `${by} declines the pact ${members}.`,
      withdrawn: (by: string, members: string): string => `${by} withdraws the pact ${members}.`,
      in_force: (_by: string, members: string): string => `The pact ${members} is in force.`,
      left: (by: string, members: string): string => `${by} leaves the pact ${members}.`,
      eliminated: (by: string, members: string): string => `${by} is out of the game and released from the pact ${members}.`,
      expired: (_by: string, members: string): string => `The pact ${members} has expired.`,
    } as Record<string, (by: string, members: string) => string>,
    tableInForce: (members: string, rounds: string): string => `Pact announced: ${members} (${rounds}).`,
    tableEnded: (members: string, reason: string): string => `The announced pact ${members} has ended: ${reason}.`,
    betrayal: (traitor: string, victim: string, acts: string, turn: number, text: string): string =>
      `${traitor} betrayed ${victim}: ${acts} on turn ${turn}${text ? ` (${text})` : ''}.`,
    acts: { kill: 'killed a piece', displace: 'moved a piece with a diplomat', encircle: 'encircled the chief' } as Record<string, string>,
    betrayalTitle: 'Betrayal!',
  },

  reveal: {
    title: 'Everything that was said and agreed',
    hiddenConversations: 'Private conversations stay private in this game; pacts and betrayals are shown.',
    nothing: 'Nothing was said or agreed.',
    beforeFirst: 'Before the first turn',
    afterTurn: (n: number): string => `After turn ${n}`,
    pactsTitle: 'Pacts',
    betrayalsTitle: 'Betrayals',
    noBetrayal: 'Nobody betrayed anybody.',
    channelOpened: (by: string, names: string): string => `${by} opened a conversation with ${names}.`,
    pactLine: (members: string, proposer: string, terms: string, outcome: string): string => `${members} (proposed by ${proposer}; ${terms}): ${outcome}`,
    neverInForce: 'never in force',
    draw: (event: string, by: string): string =>
      event === 'offered'
        ? `${by} offers a draw.`
        : event === 'accepted'
          ? `${by} accepts the draw.`
          : event === 'declined'
            ? `${by} declines the draw.`
            : event === 'passed'
              ? 'The draw is agreed.'
              : 'The draw offer lapses.',
    where: (label: string): string => `[${label}]`,
    terms: (rounds: string, announced: string): string => `${rounds}, ${announced}`,
    loadOlder: (where: string): string => `Load older messages: ${where}`,
  },

  /** The table around the board: move descriptions, turn order, draw banner, notices, sounds. */
  table: {
    piece: (c: Colour, k: Kind): string => `${COLOUR_NAMES[c]} ${KIND_NAMES[k].toLowerCase()}`,
    kills: (victim: string): string => `kills ${victim}`,
    killsOn: (victim: string, square: string): string => `kills ${victim} on ${square}`,
    corpseTo: (square: string): string => `corpse to ${square}`,
    displacedTo: (piece: string, square: string): string => `${piece} to ${square}`,
    entersMaze: 'enters the maze',
    exitsTo: (square: string): string => `leaves the maze to ${square}`,
    armyTo: (army: Colour, to: string): string => `${COLOUR_NAMES[army]} army ${to}`,
    controlledBy: (c: Colour): string => `to ${COLOUR_NAMES[c]}`,
    frozen: 'frozen',
    hostage: 'hostage',
    out: (c: Colour, cause: EliminationCause): string => `${COLOUR_NAMES[c]} out (${CAUSES[cause]})`,
    passes: 'passes',
    notation: 'Notation',
    notationHint: 'Show the moves in notation, as game records write them (c7-c6, d5xd4>a5)',
    turnOrder: 'Turn order',
    nextUp: (who: string): string => `Next: ${who}`,
    extraTurn: 'extra turn (ruler)',
    orderItem: (who: string, extra: boolean): string => `${who}${extra ? ' (ruler’s extra turn)' : ''}`,
    drawOffer: (by: string): string => `${by} offers a draw.`,
    /** A roll call of who has not answered yet: "Waiting for Ann, Bo." */
    drawWaiting: (names: readonly string[]): string => `Waiting for ${f.list(names, 'unit')}.`,
    drawYouOffered: 'You offered a draw.',
    drawDeclined: (who: string): string => `${who} declined the draw.`,
    dismiss: 'Dismiss',
    resigned: (who: string): string => `${who} resigned.`,
    eliminated: (who: string, cause: EliminationCause): string => `${who} is out: ${CAUSES[cause]}.`,
    controlledByLabel: (army: Colour, by: Colour): string => `${COLOUR_NAMES[army]} army, played by ${COLOUR_NAMES[by]}`,
    frozenLabel: (army: Colour): string => `${COLOUR_NAMES[army]} army, frozen`,
    notify: 'Notify me',
    notifyHint: 'A browser notification when it is your turn and this tab is hidden',
    notifyOn: 'Notifications on',
    notifyDenied: 'Notifications blocked',
    notifyBody: (code: string): string => `Your turn in Djambi ${code}`,
  },

  /** The result screen and the rematch (`result.ts`, `ui/resultView.ts`). */
  result: resultEn,

  /** "Continue on your phone" (`seatLink.ts`, `ui/seatLinkView.ts`). */
  seatLink: seatLinkEn,

  title: {
    yourTurn: (code: string): string => `● Your turn — Djambi ${code}`,
    game: (code: string): string => `Djambi ${code}`,
    home: 'Djambi online',
    rules: 'Djambi rules',
    replay: (code: string): string => `Djambi ${code}: replay`,
    importReplay: 'Djambi: import a game',
  },

  errors: {
    generic: 'Something went wrong.',
  },

  time: {
    seconds: (n: number): string => f.duration(n, 'second'),
    minutes: (n: number): string => f.duration(n, 'minute'),
    hours: (n: number): string => f.duration(n, 'hour'),
    /** A past time, `seconds` ago: "5 minutes ago". */
    ago: (seconds: number): string => f.ago(seconds),
  },
};

/** The strings every page uses: English's are bundled. */
export type CoreStrings = typeof en;
/** The shape every locale has. */
export type Strings = CoreStrings & PageStrings;
