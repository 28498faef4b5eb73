import { describe, expect, it } from 'vitest';
import { SseParser, decodeGeoEvent, type SseMessage } from '../../src/web/map/geoStreamParser';
import { applyGeoDelta, clusterKey, deltaGroup, deltaVehicle, type GeoDelta, type MapCluster } from '../../src/shared/map';

const vehicle: MapCluster = {
  type: 'vehicle',
  id: 7,
  count: 1,
  routeType: 'А',
  route: '12',
  classRank: 2,
  course: 90,
  on: true,
  date: '2024-05-01T10:00:00Z',
  depotNumber: 1007,
  averageSpeed: 21,
  center: [59.95, 30.31],
};
const stream = [
  ': connected\n\n',
  'event: hello\ndata: {"streamId":"s-1"}\n\n',
  `event: points\ndata: ${JSON.stringify({ time: '2024-05-01T10:00:01Z', items: [vehicle] })}\n\n`,
  ': ping\n\n',
  `event: points\ndata: ${JSON.stringify({ time: '2024-05-01T10:00:02Z', items: [] })}\n\n`,
].join('');

function feed(chunks: string[]): SseMessage[] {
  const parser = new SseParser();
  return chunks.flatMap((chunk) => parser.push(chunk));
}

describe('geo stream parser', () => {
  it('reads every event of one chunk, skipping comments and heartbeats', () => {
    const messages = feed([stream]);
    expect(messages.map((m) => m.event)).toEqual(['hello', 'points', 'points']);
    expect(decodeGeoEvent(messages[0])).toEqual({ event: 'hello', data: { streamId: 's-1' } });
    expect(decodeGeoEvent(messages[1])).toEqual({ event: 'points', data: { time: '2024-05-01T10:00:01Z', items: [vehicle] } });
  });

  it('gives the same events whatever the chunk boundaries', () => {
    const whole = feed([stream]);
    for (let size = 1; size <= 17; size++) {
      const chunks: string[] = [];
      for (let i = 0; i < stream.length; i += size) chunks.push(stream.slice(i, i + size));
      expect(feed(chunks)).toEqual(whole);
    }
    for (let cut = 0; cut <= stream.length; cut++) expect(feed([stream.slice(0, cut), stream.slice(cut)])).toEqual(whole);
  });

  it('accepts CRLF and CR line ends, even split between chunks', () => {
    const crlf = stream.replace(/\n/g, '\r\n');
    expect(feed([crlf])).toEqual(feed([stream]));
    const cut = crlf.indexOf('\r\n') + 1;
    expect(feed([crlf.slice(0, cut), crlf.slice(cut)])).toEqual(feed([stream]));
    expect(feed([stream.replace(/\n/g, '\r')])).toEqual(feed([stream]));
  });

  it('joins multi-line data and keeps an event open until its blank line', () => {
    const parser = new SseParser();
    expect(parser.push('event: points\ndata: {"time":"t",\ndata: "items":[]}\n')).toEqual([]);
    expect(parser.push('\n')).toEqual([{ event: 'points', data: '{"time":"t",\n"items":[]}', id: undefined }]);
  });

  it('names an unnamed event "message", ignores events without data and unknown fields', () => {
    expect(feed(['data: 1\n\nevent: empty\n\nretry: 10\nfoo\ndata:2\n\n'])).toEqual([
      { event: 'message', data: '1', id: undefined },
      { event: 'message', data: '2', id: undefined },
    ]);
  });

  it('decodes nothing from a malformed or unknown event, and drops malformed items', () => {
    expect(decodeGeoEvent({ event: 'points', data: '{broken' })).toBeNull();
    expect(decodeGeoEvent({ event: 'other', data: '{}' })).toBeNull();
    expect(decodeGeoEvent({ event: 'hello', data: '{}' })).toBeNull();
    const decoded = decodeGeoEvent({ event: 'points', data: JSON.stringify({ time: 't', items: [vehicle, { type: 'vehicle' }, null] }) });
    expect(decoded).toEqual({ event: 'points', data: { time: 't', items: [vehicle] } });
  });

  it('decodes a delta, and refuses one with missing or malformed parts', () => {
    const delta: GeoDelta = {
      time: '2024-05-01T10:00:03.000Z',
      at: Date.parse('2024-05-01T10:00:03Z'),
      v: 4,
      base: 3,
      vehicles: [[7, 59.951, 30.311, 95, 22, 1, 3000]],
      groups: [],
      gone: ['g99'],
    };
    expect(decodeGeoEvent({ event: 'delta', data: JSON.stringify(delta) })).toEqual({ event: 'delta', data: delta });
    for (const broken of [
      { ...delta, v: 'x' },
      { ...delta, at: undefined },
      { ...delta, vehicles: [[7, 59.9]] },
      { ...delta, groups: null },
      { ...delta, gone: [1] },
    ]) {
      expect(decodeGeoEvent({ event: 'delta', data: JSON.stringify(broken) })).toBeNull();
    }
  });
});

describe('geo stream deltas', () => {
  const at = Date.parse('2024-05-01T10:00:05Z');
  const group: MapCluster = {
    type: 'group',
    id: 3885,
    count: 4,
    routeType: null,
    route: null,
    classRank: null,
    course: 0,
    on: true,
    date: '2024-05-01T10:00:04.000Z',
    depotNumber: null,
    averageSpeed: 18.5,
    center: [59.9, 30.2],
  };
  const picture = () => new Map([vehicle, group].map((item) => [clusterKey(item), item]));

  it('round-trips changed items: a moved vehicle keeps the labels the client has, a group comes whole', () => {
    const moved: MapCluster = { ...vehicle, center: [59.951, 30.312], course: 100, averageSpeed: 30.5, date: '2024-05-01T10:00:04.500Z' };
    const regrouped: MapCluster = { ...group, count: 5, averageSpeed: 20, center: [59.901, 30.2] };
    const ageOf = (item: MapCluster) => at - Date.parse(item.date);
    const short = deltaVehicle(moved, vehicle, ageOf(moved));
    expect(short).toEqual([7, 59.951, 30.312, 100, 30.5, 1, 500]);
    const next = picture();
    expect(
      applyGeoDelta(next, {
        time: new Date(at).toISOString(),
        at,
        v: 2,
        base: 1,
        vehicles: [short],
        groups: [deltaGroup(regrouped, ageOf(regrouped))],
        gone: [],
      }),
    ).toBe(true);
    expect(next.get('v7')).toEqual(moved);
    expect(next.get('g3885')).toEqual(regrouped);
  });

  it('sends the labels of a vehicle new to the picture or relabelled, and removes what is gone', () => {
    const arrived: MapCluster = { ...vehicle, id: 8, depotNumber: 1008, route: '3' };
    expect(deltaVehicle(arrived, undefined, 0)).toHaveLength(11);
    expect(deltaVehicle({ ...vehicle, route: '13' }, vehicle, 0)).toHaveLength(11);
    const next = picture();
    expect(
      applyGeoDelta(next, {
        time: '',
        at,
        v: 2,
        base: 1,
        vehicles: [deltaVehicle(arrived, undefined, at - Date.parse(arrived.date))],
        groups: [],
        gone: ['g3885'],
      }),
    ).toBe(true);
    expect([...next.keys()].sort()).toEqual(['v7', 'v8']);
    expect(next.get('v8')).toEqual({ ...arrived, date: new Date(Date.parse(arrived.date)).toISOString() });
  });

  it('reports a delta that does not follow the picture (a vehicle without labels it does not have)', () => {
    const stranger = deltaVehicle({ ...vehicle, id: 9 }, vehicle, 0);
    expect(applyGeoDelta(picture(), { time: '', at, v: 2, base: 1, vehicles: [stranger], groups: [], gone: [] })).toBe(false);
  });
});
