import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ADDRESS_SEARCH, addressQuery, type GeocoderItem } from '../../src/shared/geocoder';
import type { MapCluster, MapFilters } from '../../src/shared/map';
import { AddressSearch } from '../../src/mobile/map/addressSearch';
import { DEFAULT_LAYERS, MODE_LAYERS, readLayers, saveLayer } from '../../src/mobile/map/fieldMapLayers';
import { NEAR_USER_METRES, distanceMetres, nearUser, nearVehicles } from '../../src/mobile/map/nearVehicles';
import { NEAR_STOPS_COUNT, NEAR_STOPS_METRES, boxAround, nearestStops } from '../../src/mobile/map/nearStops';
import { EMPTY_VEHICLE_SEARCH, changeFilter, chooseVehicle, matchingVehicles, routesOfType } from '../../src/mobile/map/vehicleSearch';
import { baseMapOptions } from '../../src/web/map/base/baseMapOptions';
import { FIELD_MAP_ZOOM } from '../../src/mobile/map/fieldMapConstants';

const memory = () => {
  const items = new Map<string, string>();
  return { getItem: (key: string) => items.get(key) ?? null, setItem: (key: string, value: string) => void items.set(key, value) };
};

describe('field map layers per mode (field-app spec 4)', () => {
  it('start with stops on and the rest off; control modes with regions on and departments off', () => {
    const storage = memory();
    expect(readLayers('map', storage)).toEqual({
      stops: true,
      routes: false,
      agencies: false,
      branches: false,
      departments: false,
      regions: false,
      controllers: false,
    });
    expect(readLayers('departmentControl', storage)).toMatchObject({
      regions: true,
      departments: false,
      stops: false,
      routes: false,
      controllers: true,
    });
    expect(readLayers('currentRegion', storage)).toMatchObject({ regions: true, departments: false, stops: true, routes: true });
  });

  it('offer the agencies layer in the default mode only', () => {
    expect(MODE_LAYERS.map).toContain('agencies');
    expect(MODE_LAYERS.departmentControl).not.toContain('agencies');
    expect(MODE_LAYERS.currentRegion).not.toContain('agencies');
    const storage = memory();
    storage.setItem('field.mapLayers.departmentControl', '{"agencies":true}');
    expect(readLayers('departmentControl', storage).agencies).toBe(false);
    expect(saveLayer('currentRegion', 'agencies', true, storage).agencies).toBe(false);
  });

  it('remember each mode apart, and ignore what is not a flag', () => {
    const storage = memory();
    saveLayer('map', 'stops', false, storage);
    saveLayer('map', 'routes', true, storage);
    saveLayer('departmentControl', 'departments', true, storage);
    expect(readLayers('map', storage)).toMatchObject({ stops: false, routes: true });
    expect(readLayers('departmentControl', storage)).toMatchObject({ departments: true, regions: true, stops: false });
    expect(readLayers('currentRegion', storage)).toEqual(DEFAULT_LAYERS.currentRegion);
    storage.setItem('field.mapLayers.currentRegion', '{"routes":"yes","stops":false}');
    expect(readLayers('currentRegion', storage)).toMatchObject({ routes: true, stops: false });
    storage.setItem('field.mapLayers.currentRegion', 'not json');
    expect(readLayers('currentRegion', storage)).toEqual(DEFAULT_LAYERS.currentRegion);
    storage.setItem('field.mapLayers.map', 'null');
    expect(readLayers('map', storage)).toEqual(DEFAULT_LAYERS.map);
  });

  it('keep the choice for the visit when the phone refuses to store it', () => {
    const refusing = {
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(saveLayer('map', 'routes', true, refusing).routes).toBe(true);
  });
});

describe('the small map (field-app spec 9)', () => {
  it('zooms 2 to 18 and starts at 16', () => {
    expect(baseMapOptions({ zoom: FIELD_MAP_ZOOM.start, zoomLimits: FIELD_MAP_ZOOM })).toMatchObject({ zoom: 16, minZoom: 2, maxZoom: 18 });
  });

  it('marks vehicles within 2,000 m of the user as near, nearest first, groups aside', () => {
    const user: [number, number] = [59.93, 30.31];
    const at = (id: number, metresNorth: number, type: 'vehicle' | 'group' = 'vehicle'): MapCluster => ({
      type,
      id,
      count: 1,
      routeType: null,
      route: null,
      classRank: null,
      course: 0,
      on: true,
      date: '',
      depotNumber: id,
      averageSpeed: 0,
      center: [user[0] + metresNorth / 111_195, user[1]],
    });
    expect(distanceMetres(user, at(1, 1000).center)).toBeCloseTo(1000, -1);
    const items = [at(1, 1990), at(2, 2010), at(3, 500), at(4, 100, 'group')];
    expect(NEAR_USER_METRES).toBe(2000);
    expect(nearVehicles(items, user).map((v) => v.id)).toEqual([3, 1]);
    expect(nearVehicles(items, null)).toEqual([]);
    // the vehicle layer rings the same vehicles
    expect(items.filter(nearUser(user)).map((v) => v.id)).toEqual([1, 3]);
  });
});

const FILTERS: MapFilters = {
  depots: [{ id: 1, name: 'Автопарк' }],
  branches: [
    { id: 10, name: 'Парк 1', agency_id: 1 },
    { id: 11, name: 'Парк 2', agency_id: 1 },
  ],
  routes: [
    { id: 100, name: '5', route_type: 'А' },
    { id: 101, name: '7т', route_type: 'Тб' },
  ],
  vehicles: [
    { id: 1, depotNumber: 1001, gosNomer: 'А001АА78', model: 'ЛиАЗ', Depot_id: 10, route_id: 100, vehicle_type_id: 1 },
    { id: 2, depotNumber: 1002, gosNomer: 'А002АА78', model: 'ЛиАЗ', Depot_id: 10, route_id: null, vehicle_type_id: 1 },
    { id: 3, depotNumber: 2001, gosNomer: null, model: 'ВМЗ', Depot_id: 11, route_id: 101, vehicle_type_id: 2 },
  ],
};
const TYPES = [{ code: 'А' }, { code: 'Тб' }, { code: 'Тм' }];

describe('stops near the user, whose arrivals the field map lists', () => {
  const user: [number, number] = [59.93, 30.31];
  /** A stop `north` metres north and `east` metres east of the user. */
  const stop = (id: number, north: number, east: number) => ({
    id,
    name: `Остановка ${id}`,
    lat: user[0] + north / 111_320,
    lon: user[1] + east / (111_320 * Math.cos((user[0] * Math.PI) / 180)),
  });

  it('are the nearest few within a walk, nearest first, with their distance', () => {
    const stops = [stop(1, 400, 0), stop(2, 0, 50), stop(3, -600, 0), stop(4, 0, -200), stop(5, 300, 300), stop(6, 100, 0)];
    const near = nearestStops(stops, user);
    expect(near.map((s) => s.id)).toEqual([2, 6, 4]);
    expect(near).toHaveLength(NEAR_STOPS_COUNT);
    expect(near[0].distance).toBeCloseTo(50, 0);
    // none within NEAR_STOPS_METRES: none listed (stop 3 is 600 m away; stop 5 about 424 m)
    expect(nearestStops([stop(3, -600, 0)], user)).toEqual([]);
    expect(nearestStops([stop(5, 300, 300)], user, 3, NEAR_STOPS_METRES).map((s) => s.id)).toEqual([5]);
  });

  it('are read in a box holding the walk around the user', () => {
    const [south, west, north, east] = boxAround(user, NEAR_STOPS_METRES);
    for (const side of [
      [north, user[1]],
      [south, user[1]],
      [user[0], east],
      [user[0], west],
    ] as [number, number][]) {
      expect(distanceMetres(user, side)).toBeGreaterThanOrEqual(NEAR_STOPS_METRES - 1);
      expect(distanceMetres(user, side)).toBeLessThan(NEAR_STOPS_METRES * 1.01);
    }
  });
});

describe('vehicle search (field-app spec 2.3)', () => {
  it('choosing a vehicle fills its route, branch and type', () => {
    expect(chooseVehicle(EMPTY_VEHICLE_SEARCH, 3, FILTERS, TYPES)).toEqual({ branch: 11, route: 101, type: 'Тб', vehicle: 3 });
    // without a route today, the vehicle's own type
    expect(chooseVehicle({ ...EMPTY_VEHICLE_SEARCH, route: 100 }, 2, FILTERS, TYPES)).toEqual({
      branch: 10,
      route: null,
      type: 'А',
      vehicle: 2,
    });
    expect(chooseVehicle({ branch: 10, route: 100, type: 'А', vehicle: 1 }, null, FILTERS, TYPES)).toEqual({
      branch: 10,
      route: 100,
      type: 'А',
      vehicle: null,
    });
  });

  it('narrows the garage numbers and plates by branch, route and type, and drops a vehicle that no longer matches', () => {
    expect(matchingVehicles(FILTERS, { ...EMPTY_VEHICLE_SEARCH, branch: 10 }, TYPES).map((v) => v.id)).toEqual([1, 2]);
    expect(matchingVehicles(FILTERS, { ...EMPTY_VEHICLE_SEARCH, route: 101 }, TYPES).map((v) => v.id)).toEqual([3]);
    expect(matchingVehicles(FILTERS, { ...EMPTY_VEHICLE_SEARCH, type: 'А' }, TYPES).map((v) => v.id)).toEqual([1, 2]);
    const chosen = chooseVehicle(EMPTY_VEHICLE_SEARCH, 1, FILTERS, TYPES);
    expect(changeFilter(chosen, { branch: 11 }, FILTERS, TYPES)).toMatchObject({ branch: 11, vehicle: null });
    expect(changeFilter(chosen, { route: null }, FILTERS, TYPES)).toMatchObject({ route: null, vehicle: 1 });
    expect(routesOfType(FILTERS, 'Тб').map((r) => r.id)).toEqual([101]);
  });
});

describe('address search (field-app spec 2.3, 9)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('puts the city name before the query, once', () => {
    expect(addressQuery('Санкт-Петербург', '  Невский   12 ')).toBe('Санкт-Петербург, Невский 12');
    expect(addressQuery('Санкт-Петербург', 'санкт-петербург, Невский')).toBe('санкт-петербург, Невский');
    expect(addressQuery('', 'Невский')).toBe('Невский');
    expect(addressQuery('Санкт-Петербург', '   ')).toBe('');
  });

  it('asks 1 s after the last keystroke, cancels the query in flight, keeps 5 results', async () => {
    const item = (n: number): GeocoderItem => ({ label: `Дом ${n}`, kind: 'house', lat: 59.9, lon: 30.3 });
    const asked: string[] = [];
    const signals: AbortSignal[] = [];
    const results: string[][] = [];
    const search = new AddressSearch({
      city: () => 'Санкт-Петербург',
      fetch: (query, signal) => {
        asked.push(query);
        signals.push(signal);
        return Promise.resolve(Array.from({ length: 8 }, (_, i) => item(i)));
      },
      onResults: (items) => results.push(items.map((i) => i.label)),
    });
    expect(ADDRESS_SEARCH).toEqual({ debounceMs: 1000, limit: 5 });
    search.input('Нев');
    await vi.advanceTimersByTimeAsync(600);
    search.input('Невский');
    await vi.advanceTimersByTimeAsync(999);
    expect(asked).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(asked).toEqual(['Санкт-Петербург, Невский']);
    expect(results.at(-1)).toHaveLength(5);
    // a newer keystroke cancels a query still in flight
    let release: (items: GeocoderItem[]) => void = () => undefined;
    const slow = new AddressSearch({
      city: () => 'Москва',
      fetch: (query, signal) => {
        asked.push(query);
        signals.push(signal);
        return new Promise((resolve) => {
          release = resolve;
        });
      },
      onResults: (items) => results.push(items.map((i) => i.label)),
    });
    slow.input('Тверская');
    await vi.advanceTimersByTimeAsync(1000);
    const before = results.length;
    slow.input('Тверская 1');
    expect(signals.at(-1)?.aborted).toBe(true);
    release([item(1)]);
    await vi.advanceTimersByTimeAsync(0);
    expect(results.length).toBe(before);
    slow.input('');
    expect(results.at(-1)).toEqual([]);
    slow.dispose();
    search.dispose();
  });
});
