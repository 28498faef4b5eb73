import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GeocoderAnswer, GeocoderSettings } from '../src/shared/geocoder';
import { addressQuery } from '../src/shared/geocoder';
import { parseAddress } from '../src/server/geocoder/ownGeocoder';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';
import { createUserWith, TEST_PASSWORD } from './helpers/users';

const CITY = 'Санкт-Петербург';
const search = (q: string, extra = '') => `/api/v1/geocoder/search?q=${encodeURIComponent(q)}${extra}`;

describe('the own geocoder reads a query', () => {
  it('drops the city in front and the house marker, and takes the first number as the house', () => {
    expect(parseAddress('Санкт-Петербург, Невский проспект, д. 12', CITY)).toEqual({ words: ['невский', 'проспект'], house: '12' });
    expect(parseAddress('санкт-петербург ул. Марата 7а', CITY)).toEqual({ words: ['ул', 'марата'], house: '7а' });
    expect(parseAddress('Пискарёвский', CITY)).toEqual({ words: ['пискаревский'], house: null });
  });
});

describe.each(ENGINES)('the own geocoder on %s', (engine) => {
  let t: TestApp;
  let authorization: string;
  const get = async <T>(url: string, status = 200, headers = { authorization }): Promise<T> => {
    const response = await t.app.inject({ method: 'GET', url, headers });
    expect(response.statusCode, `${url}: ${response.body}`).toBe(status);
    return response.json() as T;
  };

  beforeAll(async () => {
    delete process.env.GEOCODER_URL;
    t = await startTestApp(engine);
    authorization = await t.login('operator', 'operator123');
  });
  afterAll(() => t.close());

  it('tells the phone its city and engine', async () => {
    expect(await get<GeocoderSettings>('/api/v1/geocoder/settings')).toEqual({ city: CITY, engine: 'own' });
  });

  it('finds a house of a street, the street after it, with the city prefixed as the phone sends it', async () => {
    const answer = await get<GeocoderAnswer>(search(addressQuery(CITY, 'Невский пр. 12')));
    expect(answer.engine).toBe('own');
    expect(answer.items[0]).toMatchObject({ label: 'Невский проспект, 12', kind: 'house' });
    expect(answer.items[0].lat).toBeGreaterThan(59.8);
    expect(answer.items[0].lat).toBeLessThan(60.1);
    expect(answer.items.some((item) => item.kind === 'street' && item.label === 'Невский проспект')).toBe(true);
    // abbreviations and ё
    expect((await get<GeocoderAnswer>(search('ул. Марата'))).items[0]).toMatchObject({ label: 'Улица Марата', kind: 'street' });
  });

  it('finds stops by name (one per name) and organisation addresses', async () => {
    const [stop] = await t.db.query<{ stop_name: string }>('select stop_name from mgt.stops order by stop_id limit 1');
    const stops = (await get<GeocoderAnswer>(search(`${CITY}, ${stop.stop_name}`, '&limit=20'))).items.filter((i) => i.kind === 'stop');
    expect(stops.map((i) => i.label)).toContain(stop.stop_name);
    expect(new Set(stops.map((i) => i.label)).size).toBe(stops.length);
    const [agency] = await t.db.query<{ address: string }>(
      'select address from mgt.agency where ag_lat is not null order by agency_id limit 1',
    );
    const organisations = (await get<GeocoderAnswer>(search(agency.address, '&limit=20'))).items.filter((i) => i.kind === 'organisation');
    expect(organisations.map((i) => i.label)).toContain(agency.address);
  });

  it('answers 5 results unless asked otherwise, and nothing for nonsense', async () => {
    expect((await get<GeocoderAnswer>(search('проспект'))).items).toHaveLength(5);
    expect((await get<GeocoderAnswer>(search('проспект', '&limit=7'))).items).toHaveLength(7);
    expect((await get<GeocoderAnswer>(search('щщщщщ'))).items).toEqual([]);
    expect((await get<GeocoderAnswer>(search(CITY))).items).toEqual([]);
    expect((await get<GeocoderAnswer>(search('%_\\'))).items).toEqual([]);
  });

  it('refuses bad input, strangers and users without the map', async () => {
    await get(search(''), 400);
    await get(search('x'.repeat(201)), 400);
    await get(search('Невский', '&limit=0'), 400);
    await get(search('Невский', '&limit=abc'), 400);
    await get('/api/v1/geocoder/search', 400);
    expect((await t.app.inject({ method: 'GET', url: search('Невский') })).statusCode).toBe(401);
    await createUserWith(t.db, 'geo_nomap', { '/map/previousData': 0b0100 });
    const other = await t.login('geo_nomap', TEST_PASSWORD);
    await get(search('Невский'), 403, { authorization: other });
    await get('/api/v1/geocoder/settings', 403, { authorization: other });
  });
});

/** A Nominatim stand-in: records the requests, answers as `mode` says. */
function fakeNominatim(): Promise<{ server: Server; url: string; requests: URL[]; mode: { value: 'ok' | 'error' | 'slow' } }> {
  const requests: URL[] = [];
  const mode = { value: 'ok' as 'ok' | 'error' | 'slow' };
  const server = createServer((request: IncomingMessage, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    requests.push(url);
    if (mode.value === 'error') return response.writeHead(500).end('down');
    const reply = () =>
      response.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify([
          {
            display_name: 'Невский проспект, 12, Санкт-Петербург, Россия',
            lat: '59.9357',
            lon: '30.3260',
            category: 'building',
            type: 'yes',
          },
          {
            display_name: 'Невский проспект, Санкт-Петербург, Россия',
            lat: '59.9340',
            lon: '30.3350',
            category: 'highway',
            type: 'primary',
          },
          { display_name: 'broken', lat: 'x', lon: '1' },
        ]),
      );
    if (mode.value === 'slow') setTimeout(reply, 1500);
    else reply();
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        server,
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
        requests,
        mode,
      }),
    ),
  );
}

describe.each(ENGINES)('an external Nominatim-compatible geocoder on %s', (engine) => {
  let t: TestApp;
  let authorization: string;
  let fake: Awaited<ReturnType<typeof fakeNominatim>>;

  beforeAll(async () => {
    fake = await fakeNominatim();
    process.env.GEOCODER_URL = fake.url;
    process.env.GEOCODER_TIMEOUT_MS = '400';
    t = await startTestApp(engine);
    authorization = await t.login('operator', 'operator123');
  });
  afterAll(async () => {
    delete process.env.GEOCODER_URL;
    delete process.env.GEOCODER_TIMEOUT_MS;
    await t.close();
    fake.server.close();
  });

  const ask = async (q: string) => {
    const response = await t.app.inject({ method: 'GET', url: search(q), headers: { authorization } });
    expect(response.statusCode).toBe(200);
    return response.json() as GeocoderAnswer;
  };

  it('asks it within Russia, in Russian, for 5 results, and maps its places', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/geocoder/settings', headers: { authorization } })).json()).toEqual({
      city: CITY,
      engine: 'external',
    });
    const answer = await ask(addressQuery(CITY, 'Невский 12'));
    const sent = fake.requests.at(-1)!;
    expect(sent.pathname).toBe('/search');
    expect(Object.fromEntries(sent.searchParams)).toMatchObject({
      q: 'Санкт-Петербург, Невский 12',
      format: 'jsonv2',
      limit: '5',
      countrycodes: 'ru',
      'accept-language': 'ru',
    });
    expect(answer).toEqual({
      engine: 'external',
      items: [
        { label: 'Невский проспект, 12, Санкт-Петербург, Россия', kind: 'house', lat: 59.9357, lon: 30.326 },
        { label: 'Невский проспект, Санкт-Петербург, Россия', kind: 'street', lat: 59.934, lon: 30.335 },
      ],
    });
  });

  it('falls back to the own geocoder when it fails or is slow', async () => {
    for (const mode of ['error', 'slow'] as const) {
      fake.mode.value = mode;
      const answer = await ask(addressQuery(CITY, 'Невский проспект 12'));
      expect(answer.engine).toBe('own');
      expect(answer.fallback).toBe(true);
      expect(answer.items[0]).toMatchObject({ label: 'Невский проспект, 12', kind: 'house' });
    }
    fake.mode.value = 'ok';
  });
});
