import type { GeocoderItem } from '../../shared/geocoder';
import type { Queryable } from '../db/types';

/** Words that say what kind of thing follows, not which: a house marker, the city, the country. */
const NOISE = new Set(['д', 'дом', 'корп', 'к', 'стр', 'г', 'город', 'россия', 'рф', 'спб']);

export interface ParsedAddress {
  /** Lower case, ё as е; each must occur in the address. */
  words: string[];
  /** A house number ("12", "12а"), when the query names one. */
  house: string | null;
}

const normal = (text: string) => text.toLowerCase().replace(/ё/g, 'е');

/**
 * A query as the own geocoder reads it: the city name in front (the phone puts it there) and the marker words
 * dropped, the first number taken as the house. Abbreviations need nothing: "ул" and "пр" occur in "улица"
 * and "проспект".
 */
export function parseAddress(query: string, city: string): ParsedAddress {
  let text = normal(query).trim();
  const cityName = normal(city).trim();
  if (cityName && text.startsWith(cityName)) text = text.slice(cityName.length);
  const tokens = text.split(/[\s,.;:()«»"]+/).filter(Boolean);
  let house: string | null = null;
  const words: string[] = [];
  for (const token of tokens) {
    if (house === null && /^\d{1,4}[а-я]?$/.test(token)) house = token;
    else if (!NOISE.has(token) && !/^\d+$/.test(token) && token !== cityName) words.push(token.replace(/-$/, ''));
  }
  return { words: words.filter(Boolean).slice(0, 8), house };
}

const likePattern = (word: string) => `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const folded = (column: string) => `lower(replace(${column}, 'ё', 'е'))`;

/**
 * The product's own geocoder: the houses of the named street first (the house asked for), then streets, stops
 * (one per name) and enterprises', branches' and departments' addresses, each containing every word.
 */
export async function ownGeocode(db: Queryable, query: string, city: string, limit: number): Promise<GeocoderItem[]> {
  const { words, house } = parseAddress(query, city);
  if (words.length === 0) return [];
  const patterns = words.map(likePattern);
  const houseWord = house ? `(^|[^0-9])${house}([^0-9а-я]|$)` : null;
  const rows = await db.query<GeocoderItem & { rank: number }>(
    `select label, kind, lat, lon, rank from (
       select street || coalesce(', ' || house, '') as label, case when house is null then 'street' else 'house' end as kind,
              lat, lon, case when house is null then 1 else 0 end as rank
         from app.geocoder_address
        where ${folded('street')} like all ($1::text[]) and (house is null or house = $2::text)
       union all
       select stop_name, 'stop', avg(stop_lat), avg(stop_lon), 2
         from mgt.stops
        where stop_lat is not null and stop_lon is not null and ${folded('stop_name')} like all ($1::text[])
        group by stop_name
       union all
       select address, 'organisation', lat, lon, 3 from (
         select address, ag_lat as lat, ag_lon as lon from mgt.agency
         union all select address, dp_lat, dp_lon from mgt.depot
         union all select td_adress, td_lat, td_lon from cat.department
       ) o
        where address is not null and lat is not null and lon is not null and ${folded('address')} like all ($1::text[])
          and ($3::text is null or ${folded('address')} ~ $3::text)
     ) found
     order by rank, length(label), label
     limit ${Math.max(1, Math.min(limit, 20))}`,
    [patterns, house, houseWord],
  );
  return rows.map(({ label, kind, lat, lon }) => ({ label, kind, lat: Number(lat), lon: Number(lon) }));
}
