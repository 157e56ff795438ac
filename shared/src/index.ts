/**
 * The Djambi rules engine: pure TypeScript, no I/O. Positions are immutable values; every
 * operation on untrusted input returns a `Result` with a typed error code instead of throwing.
 */
export * from './types.js';
export {
  makeSquare,
  parseSquare,
  isSquare,
  squareOf,
  fileOf,
  rankOf,
  DIRECTIONS,
  RAYS,
  NEIGHBOURS,
  ORTHO,
  SIZE as BOARD_SIZE,
  NSQ as SQUARE_COUNT,
} from './squares.js';
export {
  GEOMETRY_NAMES,
  HEX_COLUMNS,
  cellAt,
  type Camp,
  type CampPiece,
  type CellName,
  type Geometry,
  type GeometryName,
  type HexCellName,
} from './board/geometry.js';
export { BOARD_GAMES, type BoardGame, type BoardOption, boardOf, GEOMETRIES, geometryOf, geometryOfRules, isGeometryName } from './board/boards.js';
export { SQUARE } from './board/square.js';
export { HEX3, HEX6, HEX_EDGE_DIRECTIONS, HEX_VERTEX_DIRECTIONS, hexCellName } from './board/hex.js';
export * from './constants.js';
export {
  initialPosition,
  startPieces,
  cellName,
  setupPosition,
  parseRules,
  seatsOf,
  pieces,
  pieceAt,
  controllerOf,
  activePlayers,
  isActive,
  armiesOf,
  ruler,
  rulerIndex,
  colourIndex,
  CHIEF,
  ASSASSIN,
  REPORTER,
  DIPLOMAT,
  NECROMOBILE,
  MILITANT,
  FROZEN,
  MAX_NO_PROGRESS_ROUNDS,
  type Position,
  type PositionSetup,
  type PieceSetup,
  type SetupError,
} from './position.js';
export {
  nextChoice,
  playTurn,
  legalDestinations,
  legalTurns,
  countTurns,
  randomTurn,
  mustPass,
  perft,
  resign,
  drawByAgreement,
  diagnoseTurn,
  isTurn,
  applyTrusted,
  type TurnOutcome,
  type TurnError,
  type TurnDiagnosis,
} from './turn.js';
export {
  makeFen,
  parseFen,
  makeTurn,
  parseTurn,
  makeRecord,
  parseRecord,
  recordTags,
  replayRecord,
  applyEvent,
  MAX_RECORD_LENGTH,
  type GameRecord,
  type RecordEvent,
  type RecordInfo,
  type RecordTags,
  type NotationError,
} from './notation.js';
export { hostileActs, pactBreaches } from './betrayal.js';
export { isHostile } from './rules/moves.js';
export { livingChief } from './rules/encirclement.js';
export { nextTurn, type NextTurn } from './rules/order.js';
export * from './protocol.js';
export * from './protocol/game.js';
export * from './protocol/rematch.js';
export * from './protocol/joinError.js';
export { check, isPlainObject, isRecord, pathOf, type AnySchema, type Decoded, type Frozen, type Output, type SchemaError } from './protocol/schema.js';
export { ok, err } from './result.js';
