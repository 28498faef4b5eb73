import { VEHICLE_CLASSES } from '../../shared/constants';

const RANKS = new Map<string, number>(VEHICLE_CLASSES.map((c) => [c.code, c.rank]));

/** Class rank 1..4 of a capacity code (МК, СК, БК, ОБК); null for another code or none. */
export function classRankOf(code: string | null | undefined): number | null {
  return code ? (RANKS.get(code.trim()) ?? null) : null;
}
