/**
 * WKT text geometry (the spec's "text geometry") to Leaflet [lat, lon] pairs. WKT writes longitude first.
 * Accepts an optional `SRID=4326;` prefix and Z/M ordinates (ignored). Multi-line geometries are not parsed:
 * the map skips them (spec section 2, Map content).
 */
export type LatLon = [number, number];

const NUMBER_PAIR = /^\s*(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)\s+(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)/;

function stripSrid(text: string): string {
  return text.replace(/^\s*SRID=\d+;/i, '').trim();
}

function body(text: string, kind: string): string | null {
  const match = new RegExp(`^${kind}\\s*(?:Z|M|ZM)?\\s*\\((.*)\\)\\s*$`, 'is').exec(stripSrid(text));
  return match ? match[1] : null;
}

function pair(text: string): LatLon | null {
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
  const inner = body(text, 'POINT');
  return inner === null ? null : pair(inner);
}

/** LINESTRING(lon lat, ...) → [[lat, lon], ...]; null for MULTILINESTRING, EMPTY or malformed text. */
export function parseWktLineString(text: string | null | undefined): LatLon[] | null {
  if (!text) return null;
  const inner = body(text, 'LINESTRING');
  if (inner === null || inner.includes('(')) return null;
  const points: LatLon[] = [];
  for (const part of inner.split(',')) {
    const point = pair(part);
    if (!point) return null;
    points.push(point);
  }
  return points.length >= 2 ? points : null;
}
