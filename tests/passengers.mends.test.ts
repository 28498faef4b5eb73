import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSource } from '../src/server/telemetry/http/sourceKeys';
import { chainJourneys } from '../src/server/passengers/tripWriter';
import { loadFleet } from '../src/server/passengers/flowDay';
import { pivot } from '../src/client/reports/ReportChart';
import { PASSENGER_STOPS } from '../src/shared/reports/passengers';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';

type Row = Record<string, unknown>;

/**
 * The passenger flow's figures in the right place: a validator's vehicle found by its depot number on every
 * path in; one stop's passengers alike wherever they are shown; no journey from a stop to itself.
 */
describe.each(ENGINES)('passenger figures on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  let key: string;
  // the validator's vehicle: depot number 994500; another vehicle has the id 994500 (and another depot number)
  let vehicle: number;
  let decoy: number;
  let route: string;
  const VALIDATOR = 995001;
  const DAY = new Date(Date.now() + 3 * 3600_000 - 2 * 86_400_000).toISOString().slice(0, 10);
  const at = (clock: string) => new Date(`${DAY}T${clock}+03:00`).toISOString();
  const period = `from=${encodeURIComponent(`${DAY}T00:00:00+03:00`)}&to=${encodeURIComponent(`${DAY}T23:59:59+03:00`)}`;
  const headers = () => ({ authorization: admin, 'x-timezone-offset': '180' });

  beforeAll(async () => {
    t = await startTestApp(engine);
    admin = await t.login('admin', 'admin123');
    ({ key } = await createSource(t.db, 'Валидаторы', null));
    [{ id: decoy }] = await t.db.query<{ id: number }>('insert into mgt.vehicles (id, depot_number) values (994500, 994777) returning id');
    [{ id: vehicle }] = await t.db.query<{ id: number }>('insert into mgt.vehicles (depot_number) values (994500) returning id');
    expect(vehicle).not.toBe(994500);
    await t.db.query('insert into mgt.validator (validator_id, vehicle_id) values ($1, 994500)', [VALIDATOR]);
    [{ route_short_name: route }] = await t.db.query<{ route_short_name: string }>(
      'select route_short_name from mgt.routes order by route_id limit 1',
    );
  });
  afterAll(() => t.close());

  const vehicleOf = async (card: string) =>
    (
      await t.db.query<{ vehicle_id: number; depot_number: number }>(
        'select vehicle_id, depot_number from pass.fare_transaction where card_token = $1',
        [card],
      )
    )[0];

  it('puts an imported validation without a depot number on the vehicle of its validator', async () => {
    const local = `${DAY.slice(8, 10)}.${DAY.slice(5, 7)}.${DAY.slice(0, 4)}`;
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/passengers/validations/import?file=v.csv',
      headers: { ...headers(), 'content-type': 'text/csv' },
      payload: `time;validator;depot_number;route;ticket_type;card_token\n${local} 10:00;${VALIDATOR};;${route};101;BY-VALIDATOR-IMPORT\n`,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ added: 1, refused: 0 });
    expect(await vehicleOf('BY-VALIDATOR-IMPORT')).toEqual({ vehicle_id: vehicle, depot_number: 994500 });
  });

  it('puts a validation sent over HTTP with only its validator on the vehicle of that validator', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/telemetry/validations',
      headers: { 'x-telemetry-key': key },
      payload: { items: [{ validator: VALIDATOR, tm: at('10:05:00'), ticket_type: '101', card_token: 'BY-VALIDATOR-HTTP' }] },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ accepted: 1 });
    expect(await vehicleOf('BY-VALIDATOR-HTTP')).toEqual({ vehicle_id: vehicle, depot_number: 994500 });
  });

  it('gives the simulator the validator of the vehicle it is on', async () => {
    const fleet = await loadFleet(t.db);
    expect(fleet.kits.get(vehicle)?.validatorId).toBe(VALIDATOR);
    expect(fleet.kits.get(decoy)?.validatorId).toBe(0);
  });

  /** Two stops of one name (the two sides of a street): two stops, each with its own figure everywhere. */
  it('shows a stop with the same passengers in the stops table, its chart and the analysis, same-named stops apart', async () => {
    const stop = async (name: string, lat: number) =>
      (
        await t.db.query<{ id: number }>(
          'insert into mgt.stops (stop_name, stop_lat, stop_lon) values ($1, $2, 30.5) returning stop_id as id',
          [name, lat],
        )
      )[0].id;
    const twinA = await stop('Двойник', 59.95);
    const twinB = await stop('Двойник', 59.9503);
    const [{ route_id: routeId }] = await t.db.query<{ route_id: number }>('select route_id from mgt.routes order by route_id limit 1');
    const [{ id: trip }] = await t.db.query<{ id: number }>(
      `insert into pass.trip_performed (service_date, vehicle_id, route_id, schedule_start, counted) values ($1, $2, $3, $4, true) returning id`,
      [DAY, vehicle, routeId, at('07:00')],
    );
    await t.db.query(
      `insert into pass.stop_visit (trip_performed_id, service_date, vehicle_id, route_id, stop_id, stop_sequence, arrival, departure, boardings, alightings)
       values ($1, $2, $3, $4, $5, 1, $7, $7, 500, 100), ($1, $2, $3, $4, $6, 2, $8, $8, 300, 200)`,
      [trip, DAY, vehicle, routeId, twinA, twinB, at('07:01'), at('07:05')],
    );
    const stops = await t.app.inject({ method: 'GET', url: `/api/v1/reports/passengers/stops?${period}`, headers: headers() });
    expect(stops.statusCode, stops.body).toBe(200);
    const { list, chart } = stops.json() as { list: Row[]; chart: Row[] };
    const table = new Map(list.map((row) => [Number(row.stop_id), Number(row.exchange)]));
    expect([table.get(twinA), table.get(twinB)]).toEqual([600, 500]);
    const bars = pivot(chart, PASSENGER_STOPS.charts![0]).points;
    expect(bars.filter((bar) => String(bar.label).startsWith('Двойник')).map((bar) => [bar.label, bar.exchange])).toEqual([
      [`Двойник (${twinA})`, 600],
      [`Двойник (${twinB})`, 500],
    ]);
    const summary = await t.app.inject({ method: 'GET', url: `/api/v1/passengers/analysis/summary?${period}`, headers: headers() });
    expect(summary.statusCode, summary.body).toBe(200);
    const top = (summary.json().topStops as { id: number; name: string; passengers: number }[]).filter((s) => s.name.startsWith('Двойник'));
    expect(top).toEqual([
      { id: twinA, name: `Двойник (${twinA})`, passengers: 600 },
      { id: twinB, name: `Двойник (${twinB})`, passengers: 500 },
    ]);
  });

  /**
   * A ring route K1 → K2 → K3 → K1. Card ONE validates once at K1; card BACK boards at K1 twice; card TRIP
   * boards at K1, then K2. Only TRIP's rides have an inferable end: K1 → K2 and K2 → K1.
   */
  it('never chains a journey from a stop to itself', async () => {
    const stop = async (name: string, lat: number) =>
      (
        await t.db.query<{ id: number }>(
          'insert into mgt.stops (stop_name, stop_lat, stop_lon) values ($1, $2, 30.7) returning stop_id as id',
          [name, lat],
        )
      )[0].id;
    const [k1, k2, k3] = [await stop('K1', 59.8), await stop('K2', 59.809), await stop('K3', 59.818)];
    const [{ id: marshType }] = await t.db.query<{ id: number }>('select id from mgt.marsh_type order by id limit 1');
    const [{ route_id: ring }] = await t.db.query<{ route_id: number }>(
      `insert into mgt.routes (route_long_name, route_type, "MarshType_id", route_short_name, route_desc) values ('Кольцо', '3', $1, 'К-1', '') returning route_id`,
      [marshType],
    );
    const [{ id: variant }] = await t.db.query<{ id: number }>('insert into mgt.marsh_variants (route_id) values ($1) returning id', [
      ring,
    ]);
    const [{ id: trip }] = await t.db.query<{ id: number }>(
      `insert into mgt.trip ("MarshVariant_id", race_type, trajectory) values ($1, 'A', st_geomfromtext('LINESTRING(30.7 59.8, 30.7 59.818)', 4326)) returning id`,
      [variant],
    );
    for (const [i, s] of [k1, k2, k3, k1].entries())
      await t.db.query('insert into mgt.trip_stops (trip_id, stop_id, stop_sequence) values ($1, $2, $3)', [trip, s, i + 1]);
    const validations: [string, string, number][] = [
      ['ONE', '08:00', k1],
      ['BACK', '08:00', k1],
      ['BACK', '12:00', k1],
      ['TRIP', '08:00', k1],
      ['TRIP', '09:00', k2],
    ];
    for (const [card, clock, s] of validations) {
      await t.db.query(
        `insert into pass.fare_transaction (tm, validator_id, vehicle_id, route_id, stop_id, ticket_type_id, card_token, source)
         values ($1, 0, $2, $3, $4, (select min(ticket_type_id) from cat.ticket_type), $5, 'simulator')`,
        [at(clock), vehicle, ring, s, `RING-${card}`],
      );
    }
    await chainJourneys(t.db, DAY, 600, 60);
    const journeys = await t.db.query<{ card_token: string; board_stop_id: number; alight_stop_id: number | null }>(
      `select card_token, board_stop_id, alight_stop_id from pass.journey where card_token like 'RING-%' order by card_token, board_tm`,
    );
    expect(journeys.map((j) => `${j.card_token}:${j.board_stop_id}→${j.alight_stop_id}`)).toEqual([
      `RING-BACK:${k1}→null`,
      `RING-BACK:${k1}→null`,
      `RING-ONE:${k1}→null`,
      `RING-TRIP:${k1}→${k2}`,
      `RING-TRIP:${k2}→${k1}`,
    ]);
    expect(await t.db.query('select * from pass.od_day where board_stop_id = alight_stop_id')).toEqual([]);
    const on = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/settings/passengers',
      headers: headers(),
      payload: { sections: { 'passengers.correspondence': true } },
    });
    expect(on.statusCode, on.body).toBe(200);
    t.app.settings.invalidate();
    const od = await t.app.inject({
      method: 'GET',
      url: `/api/v1/reports/passengers/correspondence?${period}&route=${ring}`,
      headers: headers(),
    });
    expect(od.statusCode, od.body).toBe(200);
    expect((od.json() as { list: Row[] }).list.map((row) => `${row.origin}→${row.destination}:${row.journeys}`).sort()).toEqual([
      'K1→K2:1',
      'K2→K1:1',
    ]);
  });
});
