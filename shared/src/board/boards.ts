/** Every board by name, and the board of a position. */
import type { Geometry, GeometryName } from './geometry.js';
import { HEX3, HEX6 } from './hex.js';
import { SQUARE } from './square.js';

/** The boards by name. */
export const GEOMETRIES: Readonly<Record<GeometryName, Geometry>> = Object.freeze({ square: SQUARE, hex3: HEX3, hex6: HEX6 });

/** The board a position (or anything naming its board) is played on. */
export const geometryOf = (pos: { readonly geometry: GeometryName }): Geometry => GEOMETRIES[pos.geometry];

/** True for a board name. */
export const isGeometryName = (name: unknown): name is GeometryName => typeof name === 'string' && Object.hasOwn(GEOMETRIES, name);
