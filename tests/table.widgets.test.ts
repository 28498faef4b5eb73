import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HANDBOOKS } from '../schemas/index';
import { MSG } from '../src/shared/handbooks/messages';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';
import { api, insertExample, tableCount } from './tableFixtures';

describe.each(ENGINES)('trip stops, cameras, link options and vehicle assignment on %s', (engine) => {
  let t: TestApp;
  let call: ReturnType<typeof api>;
  beforeAll(async () => {
    t = await startTestApp(engine);
    call = api(t, await t.login('admin', 'admin123'));
  });
  afterAll(() => t.close());

  describe('trip stops', () => {
    let tripId: number;
    let stops: number[];
    beforeAll(async () => {
      tripId = (await insertExample(t.db, HANDBOOKS.trips)).id as number;
      stops = [];
      for (const name of ['Первая', 'Вторая', 'Третья'])
        stops.push((await insertExample(t.db, HANDBOOKS.stops, { stop_name: name })).stop_id as number);
    });

    it("replaces a trip's stops and reads them back in order with names", async () => {
      const saved = await call('/api/table/tripstops', {
        trip_id: tripId,
        stops: [
          { stop_id: stops[2], stop_sequence: 3, kkp: 'E' },
          { stop_id: stops[0], stop_sequence: 1, kkp: 'B' },
          { stop_id: stops[1], stop_sequence: 2, kkp: '' },
        ],
      });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      const read = await call(`/api/table/tripstops?trip_id=${tripId}`);
      expect(read.status).toBe(200);
      expect(
        (read.body.list as Record<string, unknown>[]).map(({ stop_name, stop_sequence, kkp }) => ({ stop_name, stop_sequence, kkp })),
      ).toEqual([
        { stop_name: 'Первая', stop_sequence: 1, kkp: 'B' },
        { stop_name: 'Вторая', stop_sequence: 2, kkp: null },
        { stop_name: 'Третья', stop_sequence: 3, kkp: 'E' },
      ]);
      const again = await call('/api/table/tripstops', { trip_id: tripId, stops: [{ stop_id: stops[1], stop_sequence: 1, kkp: null }] });
      expect((again.body.list as unknown[]).length).toBe(1);
    });

    it('refuses bad stops per stop and changes nothing', async () => {
      const before = await call(`/api/table/tripstops?trip_id=${tripId}`);
      const response = await call('/api/table/tripstops', {
        trip_id: tripId,
        stops: [
          { stop_id: stops[0], stop_sequence: 1, kkp: 'X' },
          { stop_id: null, stop_sequence: 2 },
          { stop_id: 99999999, stop_sequence: 3 },
          { stop_id: stops[1], stop_sequence: 1 },
        ],
      });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        messages: ['validation_failed'],
        errors: {
          'stops.0.kkp': MSG.listValue,
          'stops.1.stop_id': MSG.required,
          'stops.2.stop_id': MSG.referenceNotFound,
          'stops.3.stop_sequence': MSG.duplicateInFile,
        },
      });
      expect((await call(`/api/table/tripstops?trip_id=${tripId}`)).body).toEqual(before.body);
    });

    it('answers 404 for an unknown trip', async () => {
      expect((await call('/api/table/tripstops?trip_id=99999999')).status).toBe(404);
      expect((await call('/api/table/tripstops', { trip_id: 99999999, stops: [] })).status).toBe(404);
    });
  });

  describe('cameras', () => {
    it("adds one camera per camera type to each listed vehicle's recorder", async () => {
      const types = await t.db.query('select ip from mgt.dev_camera_type');
      if (!types.length) await insertExample(t.db, HANDBOOKS.cameratype);
      const typeCount = await tableCount(t.db, HANDBOOKS.cameratype);
      const vehicle = await insertExample(t.db, HANDBOOKS.vehicles, { depot_number: 771001 });
      const dvr = await insertExample(t.db, HANDBOOKS.dvr, { vehicle_id: vehicle.id });
      const response = await call('/api/widget/addcamersvehicle', { veh_list: [vehicle.id] });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body).toEqual({ vehicles: 1, recorders: 1, added: typeCount });
      expect((await call('/api/widget/addcamersvehicle', { veh_list: [vehicle.id] })).body).toMatchObject({ added: 0 });
      const listed = await call('/api/table/list', { config: { type: 'dvr' }, filters: { id: [dvr.id] } });
      expect((listed.body.list as { cameras: number[] }[])[0].cameras.length).toBe(typeCount);
    });

    it('refuses a vehicle without a recorder and adds nothing', async () => {
      const withDvr = await insertExample(t.db, HANDBOOKS.vehicles, { depot_number: 771002 });
      await insertExample(t.db, HANDBOOKS.dvr, { vehicle_id: withDvr.id });
      const bare = await insertExample(t.db, HANDBOOKS.vehicles, { depot_number: 771003 });
      const before = await tableCount(t.db, HANDBOOKS.camera);
      const response = await call('/api/widget/addcamersvehicle', { veh_list: [withDvr.id, bare.id] });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ messages: ['dvr_or_camera_not_found'] });
      expect(await tableCount(t.db, HANDBOOKS.camera)).toBe(before);
    });

    it("saves a recorder's camera list from its form", async () => {
      const type = await insertExample(t.db, HANDBOOKS.cameratype, { index: 42 });
      const vehicle = await insertExample(t.db, HANDBOOKS.vehicles, { depot_number: 771004 });
      const dvr = await insertExample(t.db, HANDBOOKS.dvr, { vehicle_id: vehicle.id });
      const saved = await call('/api/table/element/save', { config: { type: 'dvr' }, row: { id: dvr.id, cameras: [type.ip] } });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      expect(saved.body.cameras).toEqual([type.ip]);
      const cleared = await call('/api/table/element/save', { config: { type: 'dvr' }, row: { id: dvr.id, cameras: [] } });
      expect(cleared.body.cameras).toEqual([]);
    });
  });

  describe('link options', () => {
    it('offers rows of the link target with their display text', async () => {
      const agency = await insertExample(t.db, HANDBOOKS.agency, { title: 'Перевозчик-опция' });
      const response = await call('/api/table/options', { config: { type: 'park' }, field: 'agency_id', q: 'опция' });
      expect(response.status).toBe(200);
      expect(response.body.list).toContainEqual({ value: agency.agency_id, label: 'Перевозчик-опция' });
      const byValue = await call('/api/table/options', { config: { type: 'park' }, field: 'agency_id', values: [agency.agency_id] });
      expect(byValue.body.list).toEqual([{ value: agency.agency_id, label: 'Перевозчик-опция' }]);
    });

    it('reads a switched-off target through the handbook that links to it', async () => {
      const department = await insertExample(t.db, HANDBOOKS.department, { td_name: 'ТО опций' });
      const response = await call('/api/table/options', { config: { type: 'driver' }, field: 'td_id', q: 'опций' });
      expect(response.body.list).toEqual([{ value: department.td_id, label: 'ТО опций' }]);
      expect((await call('/api/table/options', { config: { type: 'driver' }, field: 'last_name' })).status).toBe(400);
    });

    it('offers the exits and shifts of the chosen schedule variant for an assignment, none before one is chosen', async () => {
      const variant = await insertExample(t.db, HANDBOOKS.raspvariants, { srv_id: 977555 });
      const other = await insertExample(t.db, HANDBOOKS.raspvariants, { srv_id: 977556 });
      for (const [graph, smena] of [
        [3, '1'],
        [3, '2'],
        [7, '1'],
      ] as const) {
        await insertExample(t.db, HANDBOOKS.rasptimes, { RaspVariant_id: variant.id, graph, smena });
      }
      await insertExample(t.db, HANDBOOKS.rasptimes, { RaspVariant_id: other.id, graph: 99, smena: '9' });
      const exits = await call('/api/table/options', {
        config: { type: 'vehicletask' },
        field: 'graph',
        match: { RaspVariant_id: variant.id },
      });
      expect(exits.status, JSON.stringify(exits.body)).toBe(200);
      expect(exits.body.list).toEqual([
        { value: 3, label: '3' },
        { value: 7, label: '7' },
      ]);
      const shifts = await call('/api/table/options', {
        config: { type: 'replacevehicle' },
        field: 'smena',
        match: { RaspVariant_id: variant.id },
      });
      expect(shifts.body.list).toEqual([
        { value: '1', label: '1' },
        { value: '2', label: '2' },
      ]);
      const typed = await call('/api/table/options', {
        config: { type: 'vehicletask' },
        field: 'graph',
        q: '7',
        match: { RaspVariant_id: variant.id },
      });
      expect(typed.body.list).toEqual([{ value: 7, label: '7' }]);
      const none = await call('/api/table/options', { config: { type: 'vehicletask' }, field: 'graph', match: { RaspVariant_id: null } });
      expect(none.body.list).toEqual([]);
      const bad = await call('/api/table/options', {
        config: { type: 'vehicletask' },
        field: 'graph',
        match: { RaspVariant_id: 'не число' },
      });
      expect(bad.status).toBe(400);
    });
  });

  describe('vehicle assignment import (assign or replace)', () => {
    const date = '2025-06-02';
    let route: string;
    beforeAll(async () => {
      const routeRow = await insertExample(t.db, HANDBOOKS.routes, { route_short_name: 'А-77' });
      route = 'А-77';
      const variant = await insertExample(t.db, HANDBOOKS.raspvariants, {
        route_id: routeRow.route_id,
        dow: null,
        srv_id: 977001,
        startdate: '2025-01-01',
        enddate: null,
      });
      const stop = await insertExample(t.db, HANDBOOKS.stops);
      for (const [smena, times] of [
        ['1', [360, 600, 840]],
        ['2', [850, 1100, 1320]],
      ] as const) {
        for (const [i, time] of times.entries()) {
          await insertExample(t.db, HANDBOOKS.rasptimes, {
            RaspVariant_id: variant.id,
            graph: 5,
            smena,
            racetype: 'AB',
            racenum: 1,
            order: i + 1,
            stop_id: stop.stop_id,
            time,
          });
        }
      }
      const depot = routeRow.Depot_id;
      await insertExample(t.db, HANDBOOKS.vehicles, { depot_number: 881001, depot_id: depot });
      await insertExample(t.db, HANDBOOKS.vehicles, { depot_number: 881002, depot_id: depot });
      await insertExample(t.db, HANDBOOKS.driver, { depot_id: depot, table_number: 1 });
    });

    const appoint = (csv: string) => call('/api/table/import/appoint-vehicles-to-route', { config: { type: 'vehicletask' }, csv });
    const tasks = () =>
      t.db.query<{ vehicle_id: number; smena: string }>(`select vehicle_id, smena from mgt.vehicle_task where date = $1 and graph = 5`, [
        date,
      ]);

    it('assigns a vehicle to an exit (no header line), choosing the shift by time', async () => {
      const response = await appoint(`${date};${route};5;881001;06:00;14:00\n`);
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body).toEqual({ rows: 1, assigned: 1, replaced: 0, unchanged: 0 });
      const [task] = await tasks();
      expect(task.smena).toBe('1');
    });

    it('records a replacement when another vehicle takes the exit, with a header line', async () => {
      const response = await appoint(
        `date;route_number;grafic;depot_number;start_time;end_time\n${date};${route};5;881002;10:30;14:00\n${date};${route};5;881001;15:00;22:00\n`,
      );
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body).toEqual({ rows: 2, assigned: 1, replaced: 1, unchanged: 0 });
      const [replacement] = await t.db.query<{ starttime: number; smena: string }>(
        'select starttime, smena from mgt.replace_vehicle where date = $1 and graph = 5',
        [date],
      );
      expect(replacement).toEqual({ starttime: 630, smena: '1' });
      expect((await appoint(`${date};${route};5;881001;06:00;14:00\n`)).body).toMatchObject({ unchanged: 1 });
    });

    it('the generic import path of vehicletask goes to the same procedure', async () => {
      const response = await call('/api/table/import', { config: { type: 'vehicletask' }, csv: `${date};${route};5;881001;06:00;14:00\n` });
      expect(response.body).toMatchObject({ unchanged: 1 });
    });

    it('refuses the whole file when a row cannot be placed, naming every bad row', async () => {
      const before = await tableCount(t.db, HANDBOOKS.vehicletask);
      const response = await appoint(
        [
          `2025-06-03;${route};5;881001;06:00;14:00`,
          `2025-06-03;НЕТ;5;881001;06:00;14:00`,
          `2025-06-03;${route};5;999999;06:00;14:00`,
          `2025-06-03;${route};99;881001;06:00;14:00`,
          `2025-06-03;${route};x;881001;6;14:00`,
        ].join('\n'),
      );
      expect(response.status).toBe(400);
      expect(response.body.errors).toEqual([{ row: 5, column: 'grafic', message: MSG.integer }]);
      const placed = await appoint(
        [
          `2025-06-03;${route};5;881001;06:00;14:00`,
          `2025-06-03;НЕТ;5;881001;06:00;14:00`,
          `2025-06-03;${route};5;999999;06:00;14:00`,
          `2025-06-03;${route};99;881001;06:00;14:00`,
        ].join('\n'),
      );
      expect(placed.status).toBe(400);
      expect(placed.body.errors).toEqual([
        { row: 2, column: 'route_number', message: MSG.routeNotFound },
        { row: 3, column: 'depot_number', message: MSG.vehicleNotFound },
        { row: 4, column: 'grafic', message: MSG.exitNotFound },
      ]);
      expect(await tableCount(t.db, HANDBOOKS.vehicletask)).toBe(before);
    });
  });
});
