import { parseWktCoordinates, wktBody, type LatLon } from '../../map/wkt';

/**
 * Polygon and line columns of the handbooks (district.geom, controlregion.geom, trips.trajectory) travel as
 * WKT text; the map editor works on Leaflet [lat, lon] arrays. This module converts both ways: POLYGON,
 * MULTIPOLYGON, LINESTRING and MULTILINESTRING (the kinds the server accepts), longitude first in WKT,
 * rings closed in WKT and open in Leaflet (Leaflet closes them itself), 6 decimals (about 10 cm).
 */
export type { LatLon };

export type GeometryKind = 'polygon' | 'line';

/** One polygon as Leaflet draws it: the outer ring, then the holes; each ring open (no closing repeat). */
export type PolygonRings = LatLon[][];

export interface PolygonGeometry {
  kind: 'polygon';
  /** Written back as MULTIPOLYGON even with one polygon (it came so), or because there are several. */
  multi: boolean;
  polygons: PolygonRings[];
}

export interface LineGeometry {
  kind: 'line';
  multi: boolean;
  lines: LatLon[][];
}

export type Geometry = PolygonGeometry | LineGeometry;

export const WKT_DECIMALS = 6;

/**
 * Splits '(a), (b), ...' at the top level into ['a', 'b', ...]; null when anything but commas and blanks
 * stands between the groups or the parentheses do not balance.
 */
function groups(text: string): string[] | null {
  const out: string[] = [];
  let depth = 0;
  let start = -1;
  let expectComma = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '(') {
      if (depth === 0) {
        if (expectComma) return null;
        start = i + 1;
      }
      depth++;
    } else if (char === ')') {
      depth--;
      if (depth < 0) return null;
      if (depth === 0) {
        out.push(text.slice(start, i));
        expectComma = true;
      }
    } else if (depth === 0) {
      if (char === ',') {
        if (!expectComma) return null;
        expectComma = false;
      } else if (!/\s/.test(char)) {
        return null;
      }
    }
  }
  return depth === 0 && expectComma && out.length > 0 ? out : null;
}

const samePoint = (a: LatLon, b: LatLon): boolean => a[0] === b[0] && a[1] === b[1];

/** A ring without its closing repeat; null with fewer than 3 distinct vertices. */
function parseRing(text: string): LatLon[] | null {
  const points = parseWktCoordinates(text);
  if (!points) return null;
  if (points.length > 1 && samePoint(points[0], points[points.length - 1])) points.pop();
  return points.length >= 3 ? points : null;
}

function parsePolygon(text: string): PolygonRings | null {
  const rings = groups(text)?.map(parseRing);
  return rings && rings.every((ring) => ring !== null) ? (rings as PolygonRings) : null;
}

function parseLine(text: string): LatLon[] | null {
  const points = parseWktCoordinates(text);
  return points && points.length >= 2 ? points : null;
}

/**
 * The parts of `NAME(...)` (one) or `MULTINAME(...)` (several): undefined when the text is of neither
 * kind, null when it is but a part is malformed.
 */
function partsOf<T>(text: string, name: string, parsePart: (body: string) => T | null): { multi: boolean; parts: T[] | null } | undefined {
  const single = wktBody(text, name);
  if (single !== null) {
    const part = parsePart(single);
    return { multi: false, parts: part === null ? null : [part] };
  }
  const multi = wktBody(text, `MULTI${name}`);
  if (multi === null) return undefined;
  const parts = groups(multi)?.map(parsePart);
  return { multi: true, parts: parts && parts.every((part) => part !== null) ? (parts as T[]) : null };
}

/**
 * WKT → geometry; null for blank, EMPTY, malformed text or another kind. `kind` restricts the result to
 * polygons or lines (a district cannot take a line).
 */
export function parseWktGeometry(text: string | null | undefined, kind?: GeometryKind): Geometry | null {
  if (!text || !text.trim()) return null;
  if (kind !== 'line') {
    const found = partsOf(text, 'POLYGON', parsePolygon);
    if (found) return found.parts && { kind: 'polygon', multi: found.multi, polygons: found.parts };
  }
  if (kind !== 'polygon') {
    const found = partsOf(text, 'LINESTRING', parseLine);
    if (found) return found.parts && { kind: 'line', multi: found.multi, lines: found.parts };
  }
  return null;
}

/** A coordinate rounded to WKT_DECIMALS, without trailing zeros. */
export function formatOrdinate(value: number): string {
  const rounded = Number(value.toFixed(WKT_DECIMALS));
  return String(Object.is(rounded, -0) ? 0 : rounded);
}

/** Rounded points with consecutive repeats (a double click, a snapped vertex) dropped. */
function cleanPoints(points: readonly LatLon[]): LatLon[] {
  const out: LatLon[] = [];
  for (const [lat, lon] of points) {
    const point: LatLon = [Number(lat.toFixed(WKT_DECIMALS)), Number(lon.toFixed(WKT_DECIMALS))];
    if (!out.length || !samePoint(out[out.length - 1], point)) out.push(point);
  }
  return out;
}

const coordinates = (points: readonly LatLon[]): string =>
  points.map(([lat, lon]) => `${formatOrdinate(lon)} ${formatOrdinate(lat)}`).join(', ');

/** A ring closed for WKT; null with fewer than 3 distinct vertices. */
function ringText(ring: readonly LatLon[]): string | null {
  const points = cleanPoints(ring);
  if (points.length > 1 && samePoint(points[0], points[points.length - 1])) points.pop();
  if (points.length < 3) return null;
  return `(${coordinates([...points, points[0]])})`;
}

/** A polygon's rings for WKT; null when its outer ring is degenerate (degenerate holes are dropped). */
function polygonText(rings: PolygonRings): string | null {
  const [outer, ...holes] = rings.map(ringText);
  if (!outer) return null;
  return `(${[outer, ...holes.filter((hole): hole is string => hole !== null)].join(', ')})`;
}

function lineText(line: readonly LatLon[]): string | null {
  const points = cleanPoints(line);
  return points.length >= 2 ? `(${coordinates(points)})` : null;
}

/**
 * Geometry → WKT; degenerate parts (a polygon under 3 vertices, a line under 2) are left out, and null
 * comes back when nothing is left. Several parts, or a geometry that came as MULTI, give the MULTI kind.
 */
export function geometryToWkt(geometry: Geometry): string | null {
  const parts = geometry.kind === 'polygon' ? geometry.polygons.map(polygonText) : geometry.lines.map(lineText);
  const kept = parts.filter((part): part is string => part !== null);
  if (!kept.length) return null;
  const name = geometry.kind === 'polygon' ? 'POLYGON' : 'LINESTRING';
  if (kept.length === 1 && !geometry.multi) return `${name}${kept[0]}`;
  return `MULTI${name}(${kept.join(', ')})`;
}

/** South-west and north-east corners of every vertex, for fitting a map to the shape; null when empty. */
export function geometryBounds(geometry: Geometry): [LatLon, LatLon] | null {
  const points = geometry.kind === 'polygon' ? geometry.polygons.flat(2) : geometry.lines.flat();
  if (!points.length) return null;
  let [south, west] = points[0];
  let [north, east] = points[0];
  for (const [lat, lon] of points) {
    south = Math.min(south, lat);
    north = Math.max(north, lat);
    west = Math.min(west, lon);
    east = Math.max(east, lon);
  }
  return [
    [south, west],
    [north, east],
  ];
}
