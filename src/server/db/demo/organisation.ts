import { distanceKm, fromKm, gridCells, inCityBox, isLand, nearestIndex, polygonWkt, round6, voronoiCells, type LatLon } from './geography';
import { DISTRICTS, STREETS } from './places';
import type { Random } from './random';
import type { TransportKind } from './reference';
import type { AgencyRow, ControlRegionRow, DepartmentRow, DepotRow, DistrictRow } from './rows';
import { phone } from './words';

export interface OrganisationParams {
  agencies: number;
  depots: Record<TransportKind, number>;
  /** How far from the centre depots lie, in km (they sit towards the edge of the served area). */
  depotRadiusKm: readonly [number, number];
  departments: number;
  controlGrid: readonly [rows: number, columns: number];
}

/** A depot and the one transport kind it runs. */
export interface Depot {
  row: DepotRow;
  kind: TransportKind;
}

export interface Organisation {
  agencies: AgencyRow[];
  depots: Depot[];
  departments: DepartmentRow[];
  districts: DistrictRow[];
  controlRegions: ControlRegionRow[];
}

/** The state bus company, the state electric-transport company, then private carriers. */
const AGENCY_TITLES = [
  'СПб ГУП «Пассажиравтотранс»',
  'СПб ГУП «Горэлектротранс»',
  'ООО «Невский экспресс»',
  'АО «Балтийская транспортная компания»',
  'ООО «Северная линия»',
  'ООО «Автолайн-Петербург»',
];
const PRIVATE_PARKS = ['Магистраль', 'Меридиан', 'Транзит', 'Вектор', 'Экспресс', 'Альфа', 'Балтика', 'Нева', 'Исток', 'Полюс'];
const TRAM_PARK_NUMBERS = [3, 5, 8, 7, 10];

const DEPARTMENTS: readonly { name: string; x: number; y: number; color: string }[] = [
  { name: 'Центр', x: 0, y: -1, color: '#e53935' },
  { name: 'Север', x: 3, y: 9, color: '#1e88e5' },
  { name: 'Юг', x: 1, y: -10, color: '#43a047' },
  { name: 'Восток', x: 9, y: 0, color: '#fb8c00' },
  { name: 'Запад', x: -6, y: 4, color: '#8e24aa' },
  { name: 'Юго-Восток', x: 8, y: -7, color: '#00897b' },
];

/** An address on one of the streets nearest to the point. */
function address(random: Random, point: LatLon): string {
  const streets = [...STREETS].sort(
    (a, b) => distanceKm(point, { lat: a[1], lon: a[2] }) - distanceKm(point, { lat: b[1], lon: b[2] }) || a[0].localeCompare(b[0]),
  );
  return `${random.pick(streets.slice(0, 3))[0]}, д. ${random.int(1, 180)}${random.chance(0.2) ? `, корп. ${random.int(1, 4)}` : ''}`;
}

/** A land point in the city box at a distance from the centre within the range, towards the given bearing. */
function pointAround(random: Random, angle: number, [minKm, maxKm]: readonly [number, number]): LatLon {
  for (let attempt = 0; ; attempt++) {
    const bearing = angle + random.float(-0.4, 0.4) + attempt * 0.3;
    const km = random.float(minKm, maxKm);
    const point = fromKm(km * Math.cos(bearing), km * Math.sin(bearing));
    if ((inCityBox(point) && isLand(point)) || attempt > 50) return { lat: round6(point.lat), lon: round6(point.lon) };
  }
}

export function generateOrganisation(random: Random, params: OrganisationParams): Organisation {
  const agencies: AgencyRow[] = AGENCY_TITLES.slice(0, params.agencies).map((title, i) => {
    const office = pointAround(random, random.float(0, 2 * Math.PI), [0.5, 4]);
    return {
      agency_id: i + 1,
      title,
      address: address(random, office),
      phone: phone(random),
      transporter_id: 1000 + i * 1000 + random.int(0, 999),
      ag_lat: office.lat,
      ag_lon: office.lon,
      do_not_update: true,
    };
  });

  const depots: Depot[] = [];
  let privateParks = 0;
  for (const kind of ['bus', 'trolleybus', 'tram'] as const) {
    const count = params.depots[kind];
    for (let n = 0; n < count; n++) {
      const electric = kind !== 'bus';
      // Half the bus parks are the state company's, the rest go round the private carriers.
      const agencyId =
        electric || agencies.length < 3
          ? Math.min(electric ? 2 : 1, agencies.length)
          : n % 2 === 0
            ? 1
            : 3 + ((n >> 1) % (agencies.length - 2));
      let name: string;
      if (kind === 'tram')
        name = `Трамвайный парк № ${TRAM_PARK_NUMBERS[n % TRAM_PARK_NUMBERS.length] + 10 * Math.floor(n / TRAM_PARK_NUMBERS.length)}`;
      else if (kind === 'trolleybus') name = `Троллейбусный парк № ${n + 1}`;
      else if (agencyId === 1) name = `Автобусный парк № ${Math.floor(n / 2) + 1}`;
      else name = `Автобусный парк «${PRIVATE_PARKS[privateParks++ % PRIVATE_PARKS.length]}»`;
      const point = pointAround(
        random,
        (2 * Math.PI * (n + 0.5)) / count + (kind === 'tram' ? 1 : kind === 'trolleybus' ? 2 : 0),
        params.depotRadiusKm,
      );
      depots.push({
        kind,
        row: {
          depot_id: depots.length + 1,
          depot_name: name,
          address: address(random, point),
          phone: phone(random),
          agency_id: agencyId,
          dp_lat: point.lat,
          dp_lon: point.lon,
          do_not_update: true,
        },
      });
    }
  }

  const depotPoints = depots.map(({ row }) => ({ lat: row.dp_lat, lon: row.dp_lon }));
  const departments: DepartmentRow[] = DEPARTMENTS.slice(0, params.departments).map((department, i) => {
    const point = fromKm(
      department.x * Math.min(1, params.depotRadiusKm[1] / 10),
      department.y * Math.min(1, params.depotRadiusKm[1] / 10),
    );
    return {
      td_id: i + 1,
      td_name: `Территориальный отдел «${department.name}»`,
      td_adress: address(random, point),
      td_phone: phone(random),
      depot_id: depots[nearestIndex(point, depotPoints)].row.depot_id,
      td_lat: round6(point.lat),
      td_lon: round6(point.lon),
      td_color: department.color,
    };
  });

  const districtCentres = DISTRICTS.map(([, lat, lon]) => ({ lat, lon }));
  const districts: DistrictRow[] = voronoiCells(districtCentres).map((ring, i) => ({
    district_id: i + 1,
    district_code: String(i + 1).padStart(2, '0'),
    district_name: DISTRICTS[i][0],
    geom: polygonWkt(ring),
  }));

  const departmentPoints = departments.map((d) => ({ lat: d.td_lat, lon: d.td_lon }));
  const controlRegions: ControlRegionRow[] = gridCells(...params.controlGrid).map((cell, i) => ({
    cd_id: i + 1,
    cd_name: `Участок № ${i + 1} (${DISTRICTS[nearestIndex(cell.centre, districtCentres)][0]})`,
    td_id: departments[nearestIndex(cell.centre, departmentPoints)].td_id,
    geom: polygonWkt(cell.ring),
  }));

  return { agencies, depots, departments, districts, controlRegions };
}
