import { describe, expect, it } from 'vitest';
import { HANDBOOKS, HANDBOOK_TYPES } from '../../schemas/index';
import { defaultVisibleFields } from '../../src/shared/handbooks/fields';
import type { ListField, PointField } from '../../src/shared/handbooks/types';
import {
  exportRequest,
  handbookResource,
  listRequest,
  saveRow,
  toServiceFilters,
  toServiceSort,
} from '../../src/web/providers/resources/handbooks';
import { READ } from '../../src/shared/permissions';
import { defaultSwitches } from '../../src/shared/modules';
import { mayAccess } from '../../src/shared/routeAccess';
import { cellText } from '../../src/shared/handbooks/cellText';
import { defaultRecord, formPlace, validateHandbookForm } from '../../src/client/handbooks/handbookForm';
import { columnFields, toggledColumns } from '../../src/client/handbooks/useHandbookColumns';
import { entryOfValue, minutesOfEntry } from '../../src/client/handbooks/inputs/minutesEntry';

/** The pure parts of the generated handbook screens: filters and sort sent, rows saved, columns, forms, cells. */

describe('list requests', () => {
  const stops = HANDBOOKS.stops;
  const rasptimes = HANDBOOKS.rasptimes;

  it('sends text as contains, ranges as from/to, lists and links as value lists, the free search as q', () => {
    expect(
      toServiceFilters(rasptimes, {
        q: '  Невский ',
        smena: '1',
        graph_gte: '2',
        graph_lte: '',
        time_gte: '07:00',
        time_lte: '09:30',
        stop_id: [3, 4],
        unknown: 'x',
        RaspVariant_id: [],
      }),
    ).toEqual({ q: 'Невский', smena: '1', graph: { from: '2' }, time: { from: '07:00', to: '09:30' }, stop_id: [3, 4] });
    expect(toServiceFilters(stops, { do_not_update: false })).toEqual({ do_not_update: false });
    expect(toServiceFilters(stops, undefined)).toEqual({});
  });

  it('sorts a link by its text, falls back to the default sort for unknown columns', () => {
    expect(toServiceSort(HANDBOOKS.vehicles, { field: 'depot_id', order: 'ASC' })).toEqual({ field: 'depot_id__display', order: 'ASC' });
    expect(toServiceSort(stops, { field: 'stop_name', order: 'ASC' })).toEqual({ field: 'stop_name', order: 'ASC' });
    expect(toServiceSort(stops, { field: 'nonsense', order: 'ASC' })).toEqual(stops.defaultSort);
    expect(toServiceSort(HANDBOOKS.cameratype, undefined)).toEqual({ field: 'index', order: 'ASC' });
  });

  it('pages by the list parameters and exports with the same filters', () => {
    const request = listRequest(stops, {
      filter: { q: 'a' },
      sort: { field: 'stop_id', order: 'DESC' },
      pagination: { page: 3, perPage: 100 },
    });
    expect(request).toEqual({
      config: { type: 'stops' },
      filters: { q: 'a' },
      sort: { field: 'stop_id', order: 'DESC' },
      page: 3,
      perPage: 100,
    });
    expect(exportRequest(stops, { q: 'a' }, { field: 'stop_id', order: 'DESC' })).toEqual({
      config: { type: 'stops' },
      filters: { q: 'a' },
      sort: { field: 'stop_id', order: 'DESC' },
    });
  });

  it('saves only the handbook columns and widgets (no link texts, no react-admin id)', () => {
    expect(
      saveRow(HANDBOOKS.park, {
        id: 5,
        depot_id: 5,
        depot_name: 'Парк',
        agency_id: 1,
        agency_id__display: 'Перевозчик',
        dp_lat: 59.9,
        dp_lon: 30.3,
      }),
    ).toEqual({ depot_id: 5, depot_name: 'Парк', agency_id: 1, dp_lat: 59.9, dp_lon: 30.3 });
    expect(saveRow(HANDBOOKS.dvr, { id: 1, cameras: [1, 2] })).toEqual({ id: 1, cameras: [1, 2] });
  });
});

describe('access', () => {
  it("names a handbook resource by its console path, so react-admin reads that handbook's permission", () => {
    const viewer = { id: 4, permissions: { '/handbooks/table/stops': READ } };
    expect(handbookResource('stops')).toBe('handbooks/table/stops');
    expect(mayAccess(viewer, defaultSwitches(), handbookResource('stops'), 'read')).toBe(true);
    expect(mayAccess(viewer, defaultSwitches(), handbookResource('stops'), 'update')).toBe(false);
    expect(mayAccess(viewer, defaultSwitches(), handbookResource('routes'), 'read')).toBe(false);
  });
});

describe('columns', () => {
  const agency = HANDBOOKS.agency;

  it('toggles a column in the schema order and refuses to hide the last one', () => {
    expect(toggledColumns(agency, ['title', 'agency_id'], 'phone')).toEqual(['agency_id', 'title', 'phone']);
    expect(toggledColumns(agency, ['agency_id', 'title'], 'title')).toEqual(['agency_id']);
    expect(toggledColumns(agency, ['title'], 'title')).toBeNull();
  });

  it('offers every field but the trip stops editor, and shows by default what is not hidden', () => {
    expect(columnFields(HANDBOOKS.trips).map((field) => field.name)).not.toContain('stops');
    for (const type of HANDBOOK_TYPES) {
      const offered = columnFields(HANDBOOKS[type]).map((field) => field.name);
      for (const name of defaultVisibleFields(HANDBOOKS[type])) expect(offered).toContain(name);
    }
  });
});

describe('forms', () => {
  it('leaves generated keys out of a new record, locks keys and stamps of an existing one', () => {
    const stops = HANDBOOKS.stops;
    const id = stops.fields.find((field) => field.name === 'stop_id')!;
    expect(formPlace(stops, id, true)).toBe('absent');
    expect(formPlace(stops, id, false)).toBe('locked');
    const vehicles = HANDBOOKS.vehicles;
    const stamp = vehicles.fields.find((field) => field.name === 'update_date')!;
    expect(formPlace(vehicles, stamp, false)).toBe('locked');
    const trips = HANDBOOKS.trips;
    expect(
      formPlace(
        trips,
        trips.fields.find((field) => field.name === 'stops')!,
        false,
      ),
    ).toBe('absent');
  });

  it('starts a new record with the schema defaults: colours #000000, auto-update off', () => {
    expect(defaultRecord(HANDBOOKS.incidenttypes)).toMatchObject({ incident_color: '#000000' });
    expect(defaultRecord(HANDBOOKS.raspvariants)).toMatchObject({ do_not_update: true });
  });

  it('validates with the spec messages of section 5', async () => {
    expect(await validateHandbookForm(HANDBOOKS.dvr, { vehicle_id: 1, ip: '300.1.1.1', port: 70000 })).toMatchObject({
      ip: 'Неверный формат IP-адреса',
      port: 'Порт должен быть от 1 до 65535',
    });
    expect(
      await validateHandbookForm(HANDBOOKS.raspvariants, {
        route_id: 1,
        srv_id: 1,
        startdate: '2025-02-01',
        enddate: '2025-01-01',
        dow: null,
      }),
    ).toMatchObject({ enddate: 'Дата окончания не может быть меньше даты ввода' });
    expect(await validateHandbookForm(HANDBOOKS.agency, { title: 'Перевозчик', transporter_id: 12 })).toEqual({});
  });
});

describe('hh:mm entry', () => {
  it('normalises when the input is left (underscores as zero, 24+ hours to 00, 60+ minutes to 0)', () => {
    expect(minutesOfEntry('')).toBeNull();
    expect(minutesOfEntry('07:30')).toBe(450);
    expect(minutesOfEntry('7:30')).toBe(450);
    // bare digits are minutes of day, as in the save and the import
    expect(minutesOfEntry('7')).toBe(7);
    expect(minutesOfEntry('450')).toBe(450);
    expect(minutesOfEntry('730')).toBe(730);
    expect(minutesOfEntry('7.30')).toBe('7.30');
    expect(minutesOfEntry('0_:3_')).toBe(30);
    expect(minutesOfEntry('25:10')).toBe(10);
    expect(minutesOfEntry('12:75')).toBe(720);
    expect(entryOfValue(450)).toBe('07:30');
    expect(entryOfValue('07:')).toBe('07:');
    expect(entryOfValue(null)).toBe('');
  });
});

describe('list cells', () => {
  it('shows dates, minutes, lists, links, points and secrets as an operator reads them', () => {
    expect(
      cellText(
        HANDBOOKS.holidays.fields.find((field) => field.name === 'date')!,
        { date: '2025-06-02' },
      ),
    ).toBe('02.06.2025');
    const rasptimes = HANDBOOKS.rasptimes;
    expect(
      cellText(
        rasptimes.fields.find((field) => field.name === 'time')!,
        { time: 450 },
      ),
    ).toBe('07:30');
    const dow = HANDBOOKS.holidays.fields.find((field) => field.name === 'dow') as ListField;
    expect(cellText(dow, { dow: 1 })).toBe(dow.options.find((option) => option.value === 1)!.label);
    const vehicle = HANDBOOKS.dvr.fields.find((field) => field.name === 'vehicle_id')!;
    expect(cellText(vehicle, { vehicle_id: 7, vehicle_id__display: '1007 А123АА178' })).toBe('1007 А123АА178');
    const point = HANDBOOKS.stops.fields.find((field) => field.kind === 'point') as PointField;
    expect(cellText(point, { [point.lat]: 59.9, [point.lon]: 30.312345 })).toBe('59.90000, 30.31235');
    const password = HANDBOOKS.dvr.fields.find((field) => field.name === 'password')!;
    expect(cellText(password, { password: 'secret' })).not.toContain('secret');
  });
});
