import { DEFAULT_MAP } from '../../../shared/constants';

/** A point as [lat, lon] degrees. */
export interface LatLon {
  lat: number;
  lon: number;
}

/** Where the city's stops lie: the spec's map centre and the built-up area of St Petersburg around it. */
export const CENTRE: LatLon = { lat: DEFAULT_MAP.lat, lon: DEFAULT_MAP.lon };
export const CITY_BOX = { minLat: 59.8, maxLat: 60.1, minLon: 30.1, maxLon: 30.55 } as const;
/** The box the district cells fill: the outer districts (Kronstadt, Kurortny, Pushkin, Kolpino) lie beyond the city box. */
const REGION_BOX = { minLat: 59.63, maxLat: 60.25, minLon: 29.6, maxLon: 30.76 } as const;

const KM_PER_LAT = 111.2;
const KM_PER_LON = 111.32 * Math.cos((CENTRE.lat * Math.PI) / 180);

/** Kilometres east (x) and north (y) of the centre: distances and bearings are computed there. */
export function toKm(point: LatLon): { x: number; y: number } {
  return { x: (point.lon - CENTRE.lon) * KM_PER_LON, y: (point.lat - CENTRE.lat) * KM_PER_LAT };
}

export function fromKm(x: number, y: number): LatLon {
  return { lat: CENTRE.lat + y / KM_PER_LAT, lon: CENTRE.lon + x / KM_PER_LON };
}

export function distanceKm(a: LatLon, b: LatLon): number {
  return Math.hypot((a.lon - b.lon) * KM_PER_LON, (a.lat - b.lat) * KM_PER_LAT);
}

/** Rough water of the Neva Bay west of the city, where no stop is placed. */
const WATER: readonly (readonly [minLat: number, maxLat: number, minLon: number, maxLon: number])[] = [
  [59.862, 59.985, 29.0, 30.215],
  [59.985, 60.0, 29.0, 30.17],
];

export function isLand(point: LatLon): boolean {
  return !WATER.some(
    ([minLat, maxLat, minLon, maxLon]) => point.lat > minLat && point.lat < maxLat && point.lon > minLon && point.lon < maxLon,
  );
}

export function inCityBox(point: LatLon): boolean {
  return point.lat >= CITY_BOX.minLat && point.lat <= CITY_BOX.maxLat && point.lon >= CITY_BOX.minLon && point.lon <= CITY_BOX.maxLon;
}

/** Coordinates kept to 6 decimals (about 10 cm): stable text, the same on every engine. */
export function round6(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

const coordinate = (p: LatLon) => `${round6(p.lon)} ${round6(p.lat)}`;

export function lineStringWkt(points: readonly LatLon[]): string {
  return `LINESTRING(${points.map(coordinate).join(', ')})`;
}

export function multiLineStringWkt(parts: readonly (readonly LatLon[])[]): string {
  return `MULTILINESTRING(${parts.map((part) => `(${part.map(coordinate).join(', ')})`).join(', ')})`;
}

/** A closed ring from the open list of its vertices, without the repeats rounding can make. */
export function polygonWkt(ring: readonly LatLon[]): string {
  const text = ring.map(coordinate).filter((c, i, all) => i === 0 || c !== all[i - 1]);
  if (text[text.length - 1] === text[0]) text.pop();
  return `POLYGON((${[...text, text[0]].join(', ')}))`;
}

function boxRing(box: { minLat: number; maxLat: number; minLon: number; maxLon: number }): LatLon[] {
  return [
    { lat: box.minLat, lon: box.minLon },
    { lat: box.minLat, lon: box.maxLon },
    { lat: box.maxLat, lon: box.maxLon },
    { lat: box.maxLat, lon: box.minLon },
  ];
}

/** Keeps the part of a convex polygon nearer to `site` than to `other` (one Sutherland–Hodgman pass, in km). */
function clipNearer(ring: LatLon[], site: LatLon, other: LatLon): LatLon[] {
  const s = toKm(site);
  const o = toKm(other);
  const nx = o.x - s.x;
  const ny = o.y - s.y;
  const limit = (o.x * o.x + o.y * o.y - s.x * s.x - s.y * s.y) / 2;
  const side = (p: LatLon) => {
    const k = toKm(p);
    return limit - (k.x * nx + k.y * ny);
  };
  const out: LatLon[] = [];
  for (let i = 0; i < ring.length; i++) {
    const a = ring[i];
    const b = ring[(i + 1) % ring.length];
    const da = side(a);
    const db = side(b);
    if (da >= 0) out.push(a);
    if (da >= 0 !== db >= 0) {
      const t = da / (da - db);
      out.push({ lat: a.lat + (b.lat - a.lat) * t, lon: a.lon + (b.lon - a.lon) * t });
    }
  }
  return out;
}

/** The Voronoi cell of each site inside the region box: convex, so always a valid polygon, and the cells tile the box. */
export function voronoiCells(sites: readonly LatLon[]): LatLon[][] {
  return sites.map((site, i) => {
    let ring = boxRing(REGION_BOX);
    sites.forEach((other, j) => {
      if (j !== i) ring = clipNearer(ring, site, other);
    });
    return ring;
  });
}

/** The city box cut into rows × columns rectangles, row by row from the south-west. */
export function gridCells(rows: number, columns: number): { ring: LatLon[]; centre: LatLon }[] {
  const cells: { ring: LatLon[]; centre: LatLon }[] = [];
  const dLat = (CITY_BOX.maxLat - CITY_BOX.minLat) / rows;
  const dLon = (CITY_BOX.maxLon - CITY_BOX.minLon) / columns;
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < columns; c++) {
      const box = {
        minLat: CITY_BOX.minLat + r * dLat,
        maxLat: CITY_BOX.minLat + (r + 1) * dLat,
        minLon: CITY_BOX.minLon + c * dLon,
        maxLon: CITY_BOX.minLon + (c + 1) * dLon,
      };
      cells.push({ ring: boxRing(box), centre: { lat: (box.minLat + box.maxLat) / 2, lon: (box.minLon + box.maxLon) / 2 } });
    }
  }
  return cells;
}

/** The index of the nearest of `points` to `point`. */
export function nearestIndex(point: LatLon, points: readonly LatLon[]): number {
  let best = 0;
  for (let i = 1; i < points.length; i++) if (distanceKm(point, points[i]) < distanceKm(point, points[best])) best = i;
  return best;
}
