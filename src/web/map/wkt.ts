/**
 * WKT text geometry (the spec's "text geometry") to Leaflet [lat, lon] pairs. WKT writes longitude first.
 * Accepts an optional `SRID=4326;` prefix and Z/M ordinates (ignored). Multi-line geometries are not parsed:
 * the map skips them (spec section 2, Map content).
 */
export type LatLon = [number, number];

const NUMBER_PAIR = /^\s*(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)\s+(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)/;

const ORDINATE = /^-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?$/;

function stripSrid(text: string): string {
  return text.replace(/^\s*SRID=\d+;/i, '').trim();
}

/** The text inside `KIND(...)` (SRID prefix and Z/M tag allowed), or null when the text is not of that kind. */
export function wktBody(text: string, kind: string): string | null {
  const match = new RegExp(`^${kind}\\s*(?:Z|M|ZM)?\\s*\\((.*)\\)\\s*$`, 'is').exec(stripSrid(text));
  return match ? match[1] : null;
}

/** 'lon lat' (further ordinates ignored) → [lat, lon]; null for bad numbers or out-of-range values. */
export function wktPair(text: string): LatLon | null {
  const match = NUMBER_PAIR.exec(text);
  if (!match) return null;
  const lon = Number(match[1]);
  const lat = Number(match[2]);
  if (!Number.isFinite(lat) || !Number.isFinite(lon) || Math.abs(lat) > 90 || Math.abs(lon) > 180) return null;
  return [lat, lon];
}

/** POINT(lon lat) → [lat, lon]; null for anything else (EMPTY, another type, bad numbers). */
export function parseWktPoint(text: string | null | undefined): LatLon | null {
  if (!text) return null;
  const inner = wktBody(text, 'POINT');
  return inner === null ? null : wktPair(inner);
}

/** LINESTRING(lon lat, ...) → [[lat, lon], ...]; null for MULTILINESTRING, EMPTY or malformed text. */
export function parseWktLineString(text: string | null | undefined): LatLon[] | null {
  if (!text) return null;
  const inner = wktBody(text, 'LINESTRING');
  const points = inner === null ? null : parseWktCoordinates(inner);
  return points && points.length >= 2 ? points : null;
}

/** 'lon lat, lon lat, ...' (no parentheses) → [[lat, lon], ...]; null when any pair is malformed. */
export function parseWktCoordinates(text: string): LatLon[] | null {
  if (text.includes('(') || text.includes(')')) return null;
  const points: LatLon[] = [];
  for (const part of text.split(',')) {
    const ordinates = part.trim().split(/\s+/);
    if (ordinates.length < 2 || ordinates.length > 4 || !ordinates.every((ordinate) => ORDINATE.test(ordinate))) return null;
    const point = wktPair(part);
    if (!point) return null;
    points.push(point);
  }
  return points;
}
