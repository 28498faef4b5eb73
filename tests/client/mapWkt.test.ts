import { describe, expect, it } from 'vitest';
import { parseWktLineString, parseWktPoint } from '../../src/web/map/wkt';

describe('WKT to Leaflet coordinates', () => {
  it('reads a point as [lat, lon]', () => {
    expect(parseWktPoint('POINT(30.30991 59.95355)')).toEqual([59.95355, 30.30991]);
    expect(parseWktPoint('point ( 30.1 59.9 )')).toEqual([59.9, 30.1]);
    expect(parseWktPoint('SRID=4326;POINT(30.1 59.9)')).toEqual([59.9, 30.1]);
    expect(parseWktPoint('POINT Z (30.1 59.9 12)')).toEqual([59.9, 30.1]);
    expect(parseWktPoint('POINT(-1.5e1 -3.25)')).toEqual([-3.25, -15]);
  });

  it('refuses what is not a valid point', () => {
    for (const text of [
      null,
      undefined,
      '',
      'POINT EMPTY',
      'POINT(30)',
      'POINT(200 10)',
      'POINT(10 95)',
      'LINESTRING(1 2, 3 4)',
      'POINT(a b)',
    ]) {
      expect(parseWktPoint(text)).toBeNull();
    }
  });

  it('reads a line string as [lat, lon] pairs', () => {
    expect(parseWktLineString('LINESTRING(30.1 59.9, 30.2 59.95,30.3 60)')).toEqual([
      [59.9, 30.1],
      [59.95, 30.2],
      [60, 30.3],
    ]);
    expect(parseWktLineString('SRID=4326;LINESTRING Z (30.1 59.9 0, 30.2 59.95 0)')).toEqual([
      [59.9, 30.1],
      [59.95, 30.2],
    ]);
  });

  it('skips multi-line geometries and malformed lines', () => {
    expect(parseWktLineString('MULTILINESTRING((30.1 59.9, 30.2 59.95),(30.3 60, 30.4 60.1))')).toBeNull();
    expect(parseWktLineString('LINESTRING EMPTY')).toBeNull();
    expect(parseWktLineString('LINESTRING(30.1 59.9)')).toBeNull();
    expect(parseWktLineString('LINESTRING(30.1 59.9, oops)')).toBeNull();
    expect(parseWktLineString('POINT(30.1 59.9)')).toBeNull();
  });
});
