/** Rows and columns of the correspondence's matrix: the origins and destinations with the most journeys. */
export const OD_MATRIX_SIDE = 15;

/** A pair of the correspondence (stops, districts, or the routes of a transfer). */
export type OdPair = { origin: string; destination: string; journeys: number };

/** The pairs of the report's rows (as the list answers them). */
export function odPairs(rows: readonly Record<string, unknown>[]): OdPair[] {
  return rows.map((row) => ({
    origin: String(row.origin ?? ''),
    destination: String(row.destination ?? ''),
    journeys: Number(row.journeys ?? 0),
  }));
}

/** The `side` names with the most journeys, most first (ties in the order the pairs name them). */
function busiest(pairs: readonly OdPair[], side: 'origin' | 'destination'): string[] {
  const sums = new Map<string, number>();
  for (const pair of pairs) sums.set(pair[side], (sums.get(pair[side]) ?? 0) + pair.journeys);
  return [...sums]
    .sort((a, b) => b[1] - a[1])
    .slice(0, OD_MATRIX_SIDE)
    .map(([name]) => name);
}

/**
 * The matrix of the busiest origins by the busiest destinations, cell by cell, row after row (an empty cell
 * has 0 journeys): what the console draws, at most 225 cells, computed on the server from the report's pairs
 * (up to 20,000 of them, which the page no longer downloads).
 */
export function odMatrixCells(rows: readonly Record<string, unknown>[]): OdPair[] {
  const pairs = odPairs(rows);
  const origins = busiest(pairs, 'origin');
  const destinations = busiest(pairs, 'destination');
  const cell = new Map(pairs.map((p) => [`${p.origin}\u0000${p.destination}`, p.journeys]));
  return origins.flatMap((origin) =>
    destinations.map((destination) => ({ origin, destination, journeys: cell.get(`${origin}\u0000${destination}`) ?? 0 })),
  );
}

/** The origins and destinations of the cells, in the matrix's order. */
export function odMatrixSides(cells: readonly OdPair[]): { origins: string[]; destinations: string[] } {
  return { origins: [...new Set(cells.map((c) => c.origin))], destinations: [...new Set(cells.map((c) => c.destination))] };
}
