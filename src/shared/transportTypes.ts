/** Map colours per transport type code (the route_type of routes, the note of TransportType). */
const COLORS: Record<string, string> = {
  А: '#1e88e5',
  Тб: '#43a047',
  Тм: '#e53935',
  Э: '#8e24aa',
};
export const DEFAULT_ROUTE_COLOR = '#1565c0';

export function transportTypeColor(code: string): string {
  return COLORS[code] ?? DEFAULT_ROUTE_COLOR;
}
