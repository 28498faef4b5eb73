import { describe, expect, it } from 'vitest';
import {
  formatOrdinate,
  geometryBounds,
  geometryToWkt,
  parseWktGeometry,
  type PolygonGeometry,
} from '../../src/web/handbooks/inputs/wktGeometry';
import { formatPointText, parsePointText, pointOf } from '../../src/client/handbooks/inputs/pointText';

const DISTRICT = 'POLYGON((30.28 59.92, 30.32 59.92, 30.32 59.94, 30.28 59.94, 30.28 59.92))';
const SQUARE: [number, number][] = [
  [59.92, 30.28],
  [59.92, 30.32],
  [59.94, 30.32],
  [59.94, 30.28],
];

describe('WKT polygons to Leaflet rings and back', () => {
  it('reads a polygon as open [lat, lon] rings and writes it closed, longitude first', () => {
    const geometry = parseWktGeometry(DISTRICT);
    expect(geometry).toEqual({ kind: 'polygon', multi: false, polygons: [[SQUARE]] });
    expect(geometryToWkt(geometry!)).toBe(DISTRICT);
  });

  it('closes an open ring and keeps holes', () => {
    const hole: [number, number][] = [
      [59.925, 30.29],
      [59.925, 30.3],
      [59.93, 30.3],
    ];
    expect(geometryToWkt({ kind: 'polygon', multi: false, polygons: [[SQUARE, hole]] })).toBe(
      'POLYGON((30.28 59.92, 30.32 59.92, 30.32 59.94, 30.28 59.94, 30.28 59.92), (30.29 59.925, 30.3 59.925, 30.3 59.93, 30.29 59.925))',
    );
    const parsed = parseWktGeometry(
      'POLYGON((30.28 59.92, 30.32 59.92, 30.32 59.94, 30.28 59.94, 30.28 59.92),(30.29 59.925,30.3 59.925,30.3 59.93,30.29 59.925))',
    );
    expect(parsed).toEqual({ kind: 'polygon', multi: false, polygons: [[SQUARE, hole]] });
  });

  it('keeps a multipolygon as several polygons and writes MULTIPOLYGON back', () => {
    const text = 'MULTIPOLYGON(((30 59, 30.1 59, 30.1 59.1, 30 59)), ((31 60, 31.1 60, 31.1 60.1, 31 60)))';
    const geometry = parseWktGeometry(text);
    expect(geometry).toEqual({
      kind: 'polygon',
      multi: true,
      polygons: [
        [
          [
            [59, 30],
            [59, 30.1],
            [59.1, 30.1],
          ],
        ],
        [
          [
            [60, 31],
            [60, 31.1],
            [60.1, 31.1],
          ],
        ],
      ],
    });
    expect(geometryToWkt(geometry!)).toBe(text);
    // a multipolygon left with one polygon stays a multipolygon
    const [first] = (geometry as PolygonGeometry).polygons;
    expect(geometryToWkt({ kind: 'polygon', multi: true, polygons: [first] })).toBe('MULTIPOLYGON(((30 59, 30.1 59, 30.1 59.1, 30 59)))');
    // several drawn polygons become a multipolygon
    expect(geometryToWkt({ kind: 'polygon', multi: false, polygons: [[SQUARE], [SQUARE]] })).toMatch(/^MULTIPOLYGON\(\(\(/);
  });

  it('accepts SRID, Z ordinates, lower case and spacing', () => {
    expect(parseWktGeometry('SRID=4326;polygon Z ((30 59 1, 30.1 59 1, 30.1 59.1 1, 30 59 1))')).toEqual({
      kind: 'polygon',
      multi: false,
      polygons: [
        [
          [
            [59, 30],
            [59, 30.1],
            [59.1, 30.1],
          ],
        ],
      ],
    });
    expect(parseWktGeometry('  POLYGON ( ( 30 59 ,30.1 59, 30.1 59.1,30 59 ) )  ')).not.toBeNull();
  });

  it('refuses malformed and degenerate polygons', () => {
    for (const text of [
      null,
      undefined,
      '',
      '   ',
      'POLYGON EMPTY',
      'POLYGON((30 59, 30.1 59, 30 59))',
      'POLYGON((30 59, 30.1 59, 30.1 x, 30 59))',
      'POLYGON((30 59, 30.1 59, 30.1 59.1, 30 59)',
      'POLYGON(30 59, 30.1 59, 30.1 59.1, 30 59)',
      'POLYGON((30 59, 30.1 59, 30.1 59.1)) x',
      'POLYGON((30 59, 30.1 59, 30.1 59.1))((1 2, 3 4, 5 6))',
      'POLYGON((200 59, 30.1 59, 30.1 59.1, 200 59))',
      'MULTIPOLYGON((30 59, 30.1 59, 30.1 59.1, 30 59))',
      'POINT(30 59)',
      'LINESTRING(30 59, 31 60)',
    ]) {
      expect(parseWktGeometry(text, 'polygon'), String(text)).toBeNull();
    }
  });

  it('drops degenerate parts when writing, and gives null when nothing is left', () => {
    expect(geometryToWkt({ kind: 'polygon', multi: false, polygons: [] })).toBeNull();
    expect(
      geometryToWkt({
        kind: 'polygon',
        multi: false,
        polygons: [
          [
            [
              [59, 30],
              [59.1, 30],
            ],
          ],
        ],
      }),
    ).toBeNull();
    expect(
      geometryToWkt({
        kind: 'polygon',
        multi: false,
        polygons: [
          [
            [
              [59, 30],
              [59, 30],
              [59.1, 30],
              [59, 30],
            ],
          ],
        ],
      }),
    ).toBeNull();
    expect(
      geometryToWkt({
        kind: 'polygon',
        multi: false,
        polygons: [
          [
            SQUARE,
            [
              [59.93, 30.3],
              [59.93, 30.3],
            ],
          ],
        ],
      }),
    ).toBe(DISTRICT);
  });

  it('rounds to 6 decimals without trailing zeros', () => {
    expect(formatOrdinate(30.123456789)).toBe('30.123457');
    expect(formatOrdinate(30.1)).toBe('30.1');
    expect(formatOrdinate(-0.0000001)).toBe('0');
    expect(
      geometryToWkt({
        kind: 'line',
        multi: false,
        lines: [
          [
            [59.9311111111, 30.3609999999],
            [59.935, 30.37],
          ],
        ],
      }),
    ).toBe('LINESTRING(30.361 59.931111, 30.37 59.935)');
  });
});

describe('WKT lines to Leaflet arrays and back', () => {
  it('reads and writes a line string', () => {
    const text = 'LINESTRING(30.36 59.93, 30.37 59.935)';
    const geometry = parseWktGeometry(text, 'line');
    expect(geometry).toEqual({
      kind: 'line',
      multi: false,
      lines: [
        [
          [59.93, 30.36],
          [59.935, 30.37],
        ],
      ],
    });
    expect(geometryToWkt(geometry!)).toBe(text);
  });

  it('reads and writes a multi line string', () => {
    const text = 'MULTILINESTRING((30.1 59.9, 30.2 59.95), (30.3 60, 30.4 60.1))';
    const geometry = parseWktGeometry(text);
    expect(geometry).toEqual({
      kind: 'line',
      multi: true,
      lines: [
        [
          [59.9, 30.1],
          [59.95, 30.2],
        ],
        [
          [60, 30.3],
          [60.1, 30.4],
        ],
      ],
    });
    expect(geometryToWkt(geometry!)).toBe(text);
  });

  it('refuses malformed lines and the other kind', () => {
    for (const text of [
      'LINESTRING(30 59)',
      'LINESTRING EMPTY',
      'LINESTRING(30 59, oops)',
      'MULTILINESTRING(30 59, 31 60)',
      'LINESTRING((30 59, 31 60))',
      DISTRICT,
    ]) {
      expect(parseWktGeometry(text, 'line'), text).toBeNull();
    }
    expect(parseWktGeometry('LINESTRING(30 59, 31 60)', 'polygon')).toBeNull();
  });

  it('drops repeated vertices and too short lines', () => {
    expect(
      geometryToWkt({
        kind: 'line',
        multi: false,
        lines: [
          [
            [59, 30],
            [59, 30],
            [60, 31],
          ],
        ],
      }),
    ).toBe('LINESTRING(30 59, 31 60)');
    expect(
      geometryToWkt({
        kind: 'line',
        multi: false,
        lines: [
          [
            [59, 30],
            [59, 30],
          ],
        ],
      }),
    ).toBeNull();
  });

  it('bounds every vertex', () => {
    expect(geometryBounds(parseWktGeometry(DISTRICT)!)).toEqual([
      [59.92, 30.28],
      [59.94, 30.32],
    ]);
    expect(geometryBounds({ kind: 'line', multi: false, lines: [] })).toBeNull();
  });
});

describe('the coordinate pair text', () => {
  it('reads "lat, lon" as typed or pasted', () => {
    const point = { kind: 'point', lat: 59.93428, lon: 30.3351 };
    for (const text of [
      '59.93428, 30.33510',
      '59.93428,30.33510',
      '59.93428 30.33510',
      '59.93428; 30.33510',
      '59,93428; 30,33510',
      '59,93428 30,33510',
      '  59.93428 ,  30.33510 ',
      '(59.93428, 30.33510)',
      '59.93428°, 30.33510°',
      '+59.93428 , 30.33510',
    ]) {
      expect(parsePointText(text), text).toEqual(point);
    }
    expect(parsePointText('-33.5, -70.25')).toEqual({ kind: 'point', lat: -33.5, lon: -70.25 });
    expect(parsePointText('90, 180')).toEqual({ kind: 'point', lat: 90, lon: 180 });
  });

  it('takes blank as empty', () => {
    expect(parsePointText('')).toEqual({ kind: 'empty' });
    expect(parsePointText('   ')).toEqual({ kind: 'empty' });
    expect(parsePointText(null)).toEqual({ kind: 'empty' });
  });

  it('names the problem', () => {
    for (const text of ['59.9', 'abc', '59.9, 30.3, 10', '59.9; ', '59.9, x', '59..9, 30', '1 2 3', ',']) {
      expect(parsePointText(text), text).toEqual({ kind: 'error', error: 'format' });
    }
    expect(parsePointText('90.1, 30')).toEqual({ kind: 'error', error: 'latitude' });
    expect(parsePointText('-91 30')).toEqual({ kind: 'error', error: 'latitude' });
    expect(parsePointText('59.9, 180.5')).toEqual({ kind: 'error', error: 'longitude' });
    expect(parsePointText('59.9; -181')).toEqual({ kind: 'error', error: 'longitude' });
  });

  it('shows the two columns with 5 decimals', () => {
    expect(formatPointText(59.934281234, 30.3351)).toBe('59.93428, 30.33510');
    expect(formatPointText('59.9', '30.3')).toBe('59.90000, 30.30000');
    expect(formatPointText(null, null)).toBe('');
    expect(formatPointText(undefined, '')).toBe('');
    expect(formatPointText(59.9, null)).toBe('59.90000, ');
    expect(parsePointText(formatPointText(59.934281234, 30.3351))).toEqual({ kind: 'point', lat: 59.93428, lon: 30.3351 });
  });

  it('knows when the columns hold a point', () => {
    expect(pointOf(59.9, 30.3)).toEqual({ lat: 59.9, lon: 30.3 });
    expect(pointOf('59.9', '30.3')).toEqual({ lat: 59.9, lon: 30.3 });
    expect(pointOf(59.9, null)).toBeNull();
    expect(pointOf(95, 30)).toBeNull();
    expect(pointOf('x', 30)).toBeNull();
  });
});
