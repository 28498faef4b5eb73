import { Box, Typography } from '@mui/material';
import type { LineVehicle, RouteLine } from '../../shared/dispatch/api';
import { useT } from '../../web/i18n/translate';
import { ADHERENCE_COLORS, formatDeviation, formatDuration } from '../../web/dispatch/dispatchFormat';

const WIDTH = 1000;
const PAD = 40;
/** Room after the last stop for its name, written slanting down to the right. */
const PAD_END = 100;
const AXIS_Y = 90;
const HEIGHT = 190;
/** Stop names beyond this are cut (the full name is the label's tooltip). */
const NAME_MAX = 22;
const shortName = (name: string) => (name.length > NAME_MAX ? `${name.slice(0, NAME_MAX - 1)}…` : name);
const x = (distance: number, length: number) => PAD + (length > 0 ? (distance / length) * (WIDTH - PAD - PAD_END) : 0);

/** Vehicles closer than this on the line are drawn side by side, so that each can be clicked (a terminus's layover). */
const VEHICLE_GAP = 16;

/**
 * Where each vehicle is drawn: at its place on the line, nudged along it just enough that none covers another;
 * `xs` in the order of the line (leader first, the largest x).
 */
function spread(xs: readonly number[]): number[] {
  const out = [...xs];
  for (let i = out.length - 2; i >= 0; i--) out[i] = Math.max(out[i], out[i + 1] + VEHICLE_GAP);
  // the leader kept inside the drawing, the others behind it
  for (let i = 0; i < out.length; i++) out[i] = Math.min(out[i], i === 0 ? WIDTH - 8 : out[i - 1] - VEHICLE_GAP);
  return out;
}

/** One direction as a line of its stops, the vehicles on it by progress, the headway written between neighbours. */
function DirectionLine({
  direction,
  vehicles,
  selected,
  onVehicle,
}: {
  direction: RouteLine['directions'][number];
  vehicles: LineVehicle[];
  selected: number | null;
  onVehicle: (id: number) => void;
}) {
  const t = useT();
  const { length } = direction;
  // leader first: each follower's headway is written between it and the vehicle ahead
  const ordered = [...vehicles].sort((a, b) => b.distance - a.distance);
  const drawnAt = spread(ordered.map((v) => x(v.distance, length)));
  return (
    <Box data-testid="line-direction" data-direction={direction.direction} data-vehicle-count={vehicles.length}>
      <Typography variant="caption" color="text.secondary">
        {t(`dispatch.direction.${direction.direction}`)}
      </Typography>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} width="100%" style={{ display: 'block', maxHeight: 260 }} role="img">
        <line x1={PAD} x2={WIDTH - PAD_END} y1={AXIS_Y} y2={AXIS_Y} stroke="#607d8b" strokeWidth={3} />
        {direction.stops.map((s, i) => {
          const sx = x(s.distance, length);
          return (
            <g key={`${s.stopId}-${i}`} data-testid="line-stop" data-closed={s.closed}>
              <circle cx={sx} cy={AXIS_Y} r={4} fill="#fff" stroke={s.closed ? '#d32f2f' : '#607d8b'} strokeWidth={2} />
              {s.closed && (
                // a closed stop (/dispatch/changes: closed, or skipped by a detour) is crossed out in red
                <path
                  d={`M${sx - 5} ${AXIS_Y - 5}L${sx + 5} ${AXIS_Y + 5}M${sx - 5} ${AXIS_Y + 5}L${sx + 5} ${AXIS_Y - 5}`}
                  stroke="#d32f2f"
                  strokeWidth={2}
                />
              )}
              <text
                x={sx}
                y={AXIS_Y + 14}
                fontSize={9}
                transform={`rotate(35 ${sx} ${AXIS_Y + 14})`}
                fill={s.closed ? '#d32f2f' : '#455a64'}
                textDecoration={s.closed ? 'line-through' : undefined}
              >
                <title>{s.closed ? `${s.name ?? s.stopId} — ${t('dispatch.control.closedStop')}` : (s.name ?? s.stopId)}</title>
                {shortName(s.name ?? String(s.stopId))}
              </text>
            </g>
          );
        })}
        {ordered.map((v, i) => {
          const ahead = ordered[i - 1];
          if (!ahead || v.headway === null) return null;
          const mid = (x(v.distance, length) + x(ahead.distance, length)) / 2;
          return (
            <text
              key={`h${v.vehicleId}`}
              x={mid}
              y={AXIS_Y - 26}
              fontSize={10}
              textAnchor="middle"
              fill="#37474f"
              data-testid="line-headway"
            >
              {formatDuration(v.headway)}
            </text>
          );
        })}
        {ordered.map((v, i) => {
          const vx = drawnAt[i];
          const colour = ADHERENCE_COLORS[v.adherence];
          return (
            <g
              key={v.vehicleId}
              onClick={() => onVehicle(v.vehicleId)}
              style={{ cursor: 'pointer' }}
              data-testid="line-vehicle"
              data-vehicle-id={v.vehicleId}
              data-adherence={v.adherence}
              data-progress={v.progress}
            >
              <title>{`${v.depotNumber ?? v.vehicleId} ${formatDeviation(v.deviation)}`}</title>
              <circle
                cx={vx}
                cy={AXIS_Y - 10}
                r={selected === v.vehicleId ? 9 : 7}
                fill={colour}
                stroke={selected === v.vehicleId ? '#000' : '#fff'}
                strokeWidth={2}
              />
              <text x={vx} y={AXIS_Y - 44} fontSize={10} textAnchor="middle" fill={colour} fontWeight={600}>
                {v.depotNumber ?? v.vehicleId}
              </text>
              <text x={vx} y={AXIS_Y - 56} fontSize={9} textAnchor="middle" fill={colour}>
                {formatDeviation(v.deviation)}
              </text>
            </g>
          );
        })}
      </svg>
    </Box>
  );
}

/** A route's line diagram: one line per direction of the day's timetable. */
export function LineDiagram({ line, selected, onVehicle }: { line: RouteLine; selected: number | null; onVehicle: (id: number) => void }) {
  const t = useT();
  if (!line.directions.length) return <Typography color="text.secondary">{t('dispatch.lines.noRuns')}</Typography>;
  return (
    <>
      {line.directions.map((d) => (
        <DirectionLine
          key={d.direction}
          direction={d}
          vehicles={line.vehicles.filter((v) => v.direction === d.direction)}
          selected={selected}
          onVehicle={onVehicle}
        />
      ))}
    </>
  );
}
