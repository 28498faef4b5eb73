import { CENTRE, distanceKm, fromKm, inCityBox, isLand, round6, toKm, type LatLon } from './geography';
import { METRO_STATIONS, STREETS, type Place } from './places';
import type { Random } from './random';
import type { StopRow } from './rows';
import { landmark, shortStreet } from './words';

/** A place where routes stop: one stop, or a pair of stops facing each other across the street. */
export interface StopSite extends LatLon {
  x: number;
  y: number;
  name: string;
  /** The stop of the forward direction, and of the backward one (the same stop when the site is not paired). */
  forward: number;
  backward: number;
}

export interface StopParams {
  sites: number;
  /** Share of sites with a second stop across the street. */
  pairShare: number;
  /** Half-width and half-height of the area in km around the centre (the city box bounds it anyway). */
  halfWidthKm: number;
  halfHeightKm: number;
  /** Share of sites drawn around the centre (the rest spread evenly), and that cluster's spread in km. */
  centreShare: number;
  centreSigmaKm: number;
  minSpacingKm: number;
}

const NOTES: readonly (string | null)[] = [null, null, null, 'Павильон', 'Навес', 'Указатель', 'Павильон с табло'];
const placeLatLon = (place: Place): LatLon => ({ lat: place[1], lon: place[2] });

/** Sites spread over the city (denser near the centre, never in the bay, never closer than the spacing) and their stops. */
export function generateStops(random: Random, params: StopParams): { sites: StopSite[]; stops: StopRow[] } {
  const points = placeSites(random, params);
  const sites: StopSite[] = [];
  const stops: StopRow[] = [];
  const metroUsed = new Map<string, number>();
  for (const point of points) {
    const name = stopName(random, point, metroUsed);
    const forward = addStop(stops, random, name, point);
    let backward = forward;
    if (random.chance(params.pairShare)) {
      const angle = random.float(0, 2 * Math.PI);
      const metres = random.float(0.02, 0.045);
      const { x, y } = toKm(point);
      backward = addStop(stops, random, name, fromKm(x + metres * Math.cos(angle), y + metres * Math.sin(angle)));
    }
    sites.push({ ...point, ...toKm(point), name, forward, backward });
  }
  return { sites, stops };
}

function addStop(stops: StopRow[], random: Random, name: string, point: LatLon): number {
  const stop_id = stops.length + 1;
  stops.push({
    stop_id,
    stop_name: name,
    note: random.pick(NOTES),
    stop_lat: round6(point.lat),
    stop_lon: round6(point.lon),
    do_not_update: true,
  });
  return stop_id;
}

function placeSites(random: Random, params: StopParams): LatLon[] {
  const cellKm = params.minSpacingKm;
  const taken = new Map<string, LatLon[]>();
  const key = (x: number, y: number) => `${Math.floor(x / cellKm)}:${Math.floor(y / cellKm)}`;
  const points: LatLon[] = [];
  for (let attempt = 0; points.length < params.sites && attempt < params.sites * 200; attempt++) {
    const nearCentre = random.chance(params.centreShare);
    const x = nearCentre ? random.normal() * params.centreSigmaKm : random.float(-params.halfWidthKm, params.halfWidthKm);
    const y = nearCentre ? random.normal() * params.centreSigmaKm : random.float(-params.halfHeightKm, params.halfHeightKm);
    if (Math.abs(x) > params.halfWidthKm || Math.abs(y) > params.halfHeightKm) continue;
    const point = fromKm(x, y);
    if (!inCityBox(point) || !isLand(point)) continue;
    const cx = Math.floor(x / cellKm);
    const cy = Math.floor(y / cellKm);
    let crowded = false;
    for (let dx = -1; dx <= 1 && !crowded; dx++) {
      for (let dy = -1; dy <= 1 && !crowded; dy++) {
        crowded = (taken.get(`${cx + dx}:${cy + dy}`) ?? []).some((other) => distanceKm(other, point) < params.minSpacingKm);
      }
    }
    if (crowded) continue;
    const cell = key(x, y);
    taken.set(cell, [...(taken.get(cell) ?? []), point]);
    points.push({ lat: round6(point.lat), lon: round6(point.lon) });
  }
  return points;
}

/**
 * 'Ст. м. «Купчино»' next to a metro station (the first two sites there), otherwise a street near the site,
 * with a house number or a landmark, or the landmark alone.
 */
function stopName(random: Random, point: LatLon, metroUsed: Map<string, number>): string {
  const metro = METRO_STATIONS.find((station) => distanceKm(placeLatLon(station), point) < 0.35);
  if (metro && (metroUsed.get(metro[0]) ?? 0) < 2) {
    metroUsed.set(metro[0], (metroUsed.get(metro[0]) ?? 0) + 1);
    return `Ст. м. «${metro[0]}»`;
  }
  const nearest = [...STREETS]
    .map((street) => ({ street: street[0], km: distanceKm(placeLatLon(street), point) }))
    .sort((a, b) => a.km - b.km || a.street.localeCompare(b.street))
    .slice(0, 3);
  const roll = random.next();
  const street = (roll < 0.55 ? nearest[0] : roll < 0.85 ? nearest[1] : nearest[2]).street;
  const pattern = random.next();
  if (pattern < 0.35) return street;
  if (pattern < 0.6) return `${shortStreet(street)}, ${random.int(1, 150)}`;
  if (pattern < 0.8) return `${shortStreet(street)}, ${landmark(random).replace(/^.(?=[а-яё])/, (c) => c.toLowerCase())}`;
  return landmark(random);
}

/** How far a site lies from the centre, in km. */
export function kmFromCentre(site: LatLon): number {
  return distanceKm(site, CENTRE);
}
