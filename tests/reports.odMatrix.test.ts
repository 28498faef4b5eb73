import { describe, expect, it } from 'vitest';
import { OD_MATRIX_SIDE, odMatrixCells, odMatrixSides } from '../src/shared/reports/odMatrix';

describe('the correspondence matrix cut from its pairs', () => {
  it('keeps the busiest origins and destinations, every cell row after row, empty cells as 0', () => {
    const rows = [
      { origin: 'A', destination: 'X', journeys: 5 },
      { origin: 'B', destination: 'Y', journeys: 7 },
      { origin: 'A', destination: 'Y', journeys: 4 },
      { origin: 'C', destination: 'X', journeys: 1 },
    ];
    const cells = odMatrixCells(rows);
    // origins by journeys: A 9, B 7, C 1; destinations: Y 11, X 6
    expect(odMatrixSides(cells)).toEqual({ origins: ['A', 'B', 'C'], destinations: ['Y', 'X'] });
    expect(cells.map((c) => `${c.origin}→${c.destination}:${c.journeys}`)).toEqual(['A→Y:4', 'A→X:5', 'B→Y:7', 'B→X:0', 'C→Y:0', 'C→X:1']);
  });

  it(`answers at most ${OD_MATRIX_SIDE} × ${OD_MATRIX_SIDE} cells of thousands of pairs, the quietest cut`, () => {
    const rows = Array.from({ length: 4000 }, (_, i) => ({ origin: `O${i % 80}`, destination: `D${i % 50}`, journeys: String(i % 80) }));
    const cells = odMatrixCells(rows);
    expect(cells).toHaveLength(OD_MATRIX_SIDE * OD_MATRIX_SIDE);
    const { origins } = odMatrixSides(cells);
    // O79 has the most journeys (79 on each of its 50 pairs), O0 none
    expect(origins[0]).toBe('O79');
    expect(origins).not.toContain('O0');
    expect(cells.every((c) => typeof c.journeys === 'number')).toBe(true);
  });
});
