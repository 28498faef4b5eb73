import { describe, expect, it } from 'vitest';
import type { MapFilters } from '../../src/shared/map';
import {
  EMPTY_SELECTION,
  branchOptions,
  filteredVehicleIds,
  routeOptions,
  selectionCount,
  vehicleOptions,
} from '../../src/web/map/filter/mapFilter';
import { parseLayers, defaultLayers } from '../../src/client/map/mapLayers';
import { normalizeSearch, searchFilters } from '../../src/web/map/searchResults';

const filters: MapFilters = {
  depots: [
    { id: 1, name: 'Автопарк' },
    { id: 2, name: 'Горэлектротранс' },
  ],
  branches: [
    { id: 10, name: 'Парк 1', agency_id: 1 },
    { id: 11, name: 'Парк 2', agency_id: 1 },
    { id: 20, name: 'Депо', agency_id: 2 },
  ],
  routes: [
    { id: 100, name: '1', route_type: 'А' },
    { id: 101, name: '2', route_type: 'А' },
    { id: 200, name: '3', route_type: 'Тм' },
  ],
  vehicles: [
    { id: 1, depotNumber: 1001, gosNomer: 'А001АА78', model: 'ЛиАЗ', Depot_id: 10, route_id: 100, vehicle_type_id: 1 },
    { id: 2, depotNumber: 1002, gosNomer: 'А002АА78', model: 'ЛиАЗ', Depot_id: 11, route_id: 101, vehicle_type_id: 1 },
    { id: 3, depotNumber: 3001, gosNomer: null, model: 'ЛМ', Depot_id: 20, route_id: 200, vehicle_type_id: 3 },
    { id: 4, depotNumber: 1003, gosNomer: 'А003АА78', model: 'ЛиАЗ', Depot_id: 10, route_id: null, vehicle_type_id: 1 },
  ],
};

describe('map filter', () => {
  it('lets every vehicle through without a choice', () => {
    expect(filteredVehicleIds(filters, EMPTY_SELECTION)).toBeNull();
    expect(selectionCount(EMPTY_SELECTION)).toBe(0);
  });

  it('narrows branches, routes and vehicles by the chosen enterprises', () => {
    const selection = { ...EMPTY_SELECTION, depots: [1] };
    expect(branchOptions(filters, selection).map((b) => b.id)).toEqual([10, 11]);
    expect(routeOptions(filters, selection).map((r) => r.id)).toEqual([100, 101]);
    expect(vehicleOptions(filters, selection).map((v) => v.id)).toEqual([1, 2, 4]);
    expect(filteredVehicleIds(filters, selection)).toEqual([1, 2, 4]);
  });

  it('keeps a route’s vehicles for a chosen route, and combines categories with AND', () => {
    expect(filteredVehicleIds(filters, { ...EMPTY_SELECTION, routes: [100] })).toEqual([1]);
    expect(filteredVehicleIds(filters, { ...EMPTY_SELECTION, branches: [11], routes: [100] })).toEqual([]);
    expect(filteredVehicleIds(filters, { ...EMPTY_SELECTION, depots: [1], vehicles: [3, 4] })).toEqual([4]);
    expect(selectionCount({ depots: [1], branches: [], routes: [100, 101], vehicles: [4] })).toBe(4);
  });
});

describe('layers remembered', () => {
  it('has the spec’s default layers on and the incident layer off', () => {
    expect(defaultLayers()).toEqual({ routes: true, stops: true, vehicles: true, depots: true, depotPoints: true, incidents: false });
  });

  it('reads a stored choice over the defaults and ignores a broken one', () => {
    expect(parseLayers('{"stops":false,"incidents":true,"bogus":true,"routes":"no"}')).toMatchObject({
      stops: false,
      incidents: true,
      routes: true,
    });
    expect(parseLayers('not json')).toEqual(defaultLayers());
    expect(parseLayers(null)).toEqual(defaultLayers());
  });
});

describe('map search results', () => {
  it('reads the search call’s lists into one shape', () => {
    const items = normalizeSearch({
      vehicles: [filters.vehicles[0]],
      routes: [{ route_id: 100, route_short_name: '1', route_long_name: 'Вокзал — Порт', route_type: 'А' }],
      agencies: [{ id: 1, title: 'Автопарк', address: 'ул. Парковая, 1', phone: null, lat: 59.9, lon: 30.3 }],
    });
    expect(items).toEqual([
      { kind: 'vehicle', id: 1, title: '1001 · А001АА78', subtitle: 'ЛиАЗ' },
      { kind: 'route', id: 100, title: '1', subtitle: 'Вокзал — Порт' },
      { kind: 'enterprise', id: 1, title: 'Автопарк', subtitle: 'ул. Парковая, 1', lat: 59.9, lon: 30.3 },
    ]);
  });

  it('searches the filter data when the call is not there', () => {
    expect(searchFilters(filters, '300').map((i) => `${i.kind}${i.id}`)).toEqual(['vehicle3']);
    expect(searchFilters(filters, 'горэлектро').map((i) => `${i.kind}${i.id}`)).toEqual(['enterprise2']);
    expect(searchFilters(filters, ' ')).toEqual([]);
  });
});
