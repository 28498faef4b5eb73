import { describe, expect, it } from 'vitest';
import type { TrackPoint } from '../../src/shared/map';
import { advance, buildTrack, indexAt, positionAt } from '../../src/web/map/replay/replayMath';
import { fromLocalInput, toLocalInput } from '../../src/web/map/mapFormat';
import { formatDateTime } from '../../src/shared/format';

const at = (s: number) => new Date(Date.UTC(2024, 4, 1, 10, 0, s)).toISOString();
const points: TrackPoint[] = [
  { tm: at(20), lat: 60, lon: 30.2, speed: 40, course: 180 },
  { tm: at(0), lat: 59.9, lon: 30, speed: 0, course: 0 },
  { tm: at(10), lat: 59.95, lon: 30.1, speed: 20, course: 90 },
  { tm: 'not a time', lat: 1, lon: 1, speed: 0, course: 0 },
];

describe('replay time mapping', () => {
  const track = buildTrack(points)!;

  it('sorts the fixes by time and drops the ones without a time', () => {
    expect(track.points.map((p) => p.speed)).toEqual([0, 20, 40]);
    expect(track.end - track.start).toBe(20_000);
    expect(buildTrack([])).toBeNull();
  });

  it('finds the fix at or before a moment', () => {
    expect(indexAt(track.times, track.start - 1)).toBe(0);
    expect(indexAt(track.times, track.start + 9_999)).toBe(0);
    expect(indexAt(track.times, track.start + 10_000)).toBe(1);
    expect(indexAt(track.times, track.end + 5)).toBe(2);
  });

  it('interpolates the position between fixes and holds it at the ends', () => {
    const middle = positionAt(track, track.start + 5_000);
    expect(middle.lat).toBeCloseTo(59.925, 6);
    expect(middle.lon).toBeCloseTo(30.05, 6);
    expect(middle.speed).toBeCloseTo(10, 6);
    expect(middle.course).toBe(0);
    expect(positionAt(track, track.start - 1000)).toMatchObject({ lat: 59.9, lon: 30, index: 0 });
    expect(positionAt(track, track.end + 1000)).toMatchObject({ lat: 60, lon: 30.2, index: 2 });
  });

  it('advances the clock by wall time times the speed and stops at the end', () => {
    expect(advance(track, track.start, 1000, 1)).toBe(track.start + 1000);
    expect(advance(track, track.start, 1000, 16)).toBe(track.start + 16_000);
    expect(advance(track, track.start, 1000, 64)).toBe(track.end);
  });

  it('shows times as DD.MM.YYYY HH:mm:ss and round-trips datetime-local values', () => {
    const time = new Date(2024, 0, 2, 3, 4, 5).getTime();
    expect(formatDateTime(time)).toBe('02.01.2024 03:04:05');
    expect(formatDateTime('nonsense')).toBe('');
    expect(toLocalInput(time)).toBe('2024-01-02T03:04');
    expect(fromLocalInput('2024-01-02T03:04')).toBe(new Date(2024, 0, 2, 3, 4).getTime());
    expect(fromLocalInput('')).toBeNaN();
  });
});
