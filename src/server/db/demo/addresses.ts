import { fromKm, round6, toKm } from './geography';
import { STREETS } from './places';
import type { GeocoderAddressRow } from './rows';

/** Houses numbered on each demo street, odd on one side and even on the other, this far apart along it. */
const HOUSES_PER_STREET = 60;
const HOUSE_STEP_KM = 0.03;
const SIDE_KM = 0.015;

/** A street's direction from its name (deterministic; no random draw, so the other areas' data stays as it was). */
function bearingOf(name: string): number {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + char.charCodeAt(0)) % 3600;
  return (hash / 3600) * Math.PI;
}

/**
 * The own geocoder's streets and houses (app.geocoder_address): each demo street at its middle, and its houses
 * 1..60 laid along a straight line through it, so that "Невский проспект, 12" finds a building.
 */
export function generateAddresses(): GeocoderAddressRow[] {
  const rows: GeocoderAddressRow[] = [];
  const seen = new Set<string>();
  for (const [street, lat, lon] of STREETS) {
    if (seen.has(street)) continue;
    seen.add(street);
    rows.push({ id: rows.length + 1, street, house: null, lat: round6(lat), lon: round6(lon) });
    const { x, y } = toKm({ lat, lon });
    const angle = bearingOf(street);
    const [dx, dy] = [Math.cos(angle), Math.sin(angle)];
    for (let house = 1; house <= HOUSES_PER_STREET; house++) {
      // houses run from one end of the street to the other, the middle at number 30
      const along = (Math.ceil(house / 2) - HOUSES_PER_STREET / 4) * 2 * HOUSE_STEP_KM;
      const side = house % 2 === 1 ? SIDE_KM : -SIDE_KM;
      const point = fromKm(x + dx * along - dy * side, y + dy * along + dx * side);
      rows.push({ id: rows.length + 1, street, house: String(house), lat: round6(point.lat), lon: round6(point.lon) });
    }
  }
  return rows;
}
