import { useState } from 'react';
import {
  Box,
  Chip,
  FormControlLabel,
  MenuItem,
  Switch,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TablePagination,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { Title, useTranslate } from 'react-admin';
import { formatDate, formatDateTime } from '../../shared/format';
import { DAY_HOUR_LABELS, timeGridHeader } from '../components/TimeGridHeader';
import { useDebouncedLoad } from '../../web/map/useDebouncedLoad';
import { archiveMonitoring } from '../../web/video/videoApi';

const HOUR_MS = 3_600_000;
const CELL = { held: '#43a047', gap: '#e53935', unknown: '#bdbdbd', outside: '#f1f1f1' } as const;

/**
 * A camera's archive as a day × hour grid in local time: a row per day, a cell per hour, green held, red a
 * gap, grey unknown (a media server) or outside the window. `hours` starts at `start` (an hour's start).
 */
function CoverageGrid({ hours, start }: { hours: string; start: string }) {
  const translate = useTranslate();
  const first = Date.parse(start);
  const last = first + hours.length * HOUR_MS;
  const days: Date[] = [];
  for (
    let day = new Date(new Date(first).setHours(0, 0, 0, 0));
    day.getTime() < last;
    day = new Date(day.getFullYear(), day.getMonth(), day.getDate() + 1)
  )
    days.push(day);
  const title = { '1': 'video.monitoring.held', '0': 'video.monitoring.gap', '?': 'video.monitoring.unknown' } as const;
  return (
    <Box
      sx={{ display: 'grid', gridTemplateColumns: '44px repeat(24, 10px)', gap: '2px', alignItems: 'center' }}
      data-testid="video-coverage"
    >
      {timeGridHeader(DAY_HOUR_LABELS, 'video-coverage-hour')}
      {days.map((day) => [
        <Typography key={`d${day.getTime()}`} variant="caption" sx={{ lineHeight: 1 }}>
          {formatDate(day).slice(0, 5)}
        </Typography>,
        ...Array.from({ length: 24 }, (_, hour) => {
          const at = new Date(day.getFullYear(), day.getMonth(), day.getDate(), hour).getTime();
          const value = hours[Math.floor((at - first) / HOUR_MS)] as '1' | '0' | '?' | undefined;
          const inside = at >= first && at < last && value !== undefined;
          const colour = !inside ? CELL.outside : value === '1' ? CELL.held : value === '0' ? CELL.gap : CELL.unknown;
          return (
            <Tooltip
              key={`${day.getTime()}-${hour}`}
              title={inside ? `${formatDate(day)} ${String(hour).padStart(2, '0')}:00 — ${translate(title[value!])}` : ''}
            >
              <Box data-cell={inside ? value : ''} sx={{ width: 10, height: 10, borderRadius: '2px', bgcolor: colour }} />
            </Tooltip>
          );
        }),
      ])}
    </Box>
  );
}

/**
 * /video/vehicle-archive-monitoring (SCREENS.md, "Video"): per vehicle and camera which hours of the last days
 * the recorder holds, its gaps, the recorder's last contact (the vehicle's last position), and recorders
 * that stopped recording, listed first.
 */
export default function ArchiveMonitoringScreen() {
  const translate = useTranslate();
  const [days, setDays] = useState(3);
  const [q, setQ] = useState('');
  const [stopped, setStopped] = useState(false);
  const [page, setPage] = useState(0);
  const query = { days, q: q.trim() || undefined, stopped: stopped || undefined, skipCount: page * 50 };
  const { data } = useDebouncedLoad(JSON.stringify(query), (signal) => archiveMonitoring(query, signal));
  return (
    <Box sx={{ p: 2 }}>
      <Title title="menu.video.archiveMonitoring" />
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', mb: 2, flexWrap: 'wrap' }}>
        <TextField
          size="small"
          label={translate('video.monitoring.search')}
          value={q}
          onChange={(e) => {
            setQ(e.target.value);
            setPage(0);
          }}
          slotProps={{ htmlInput: { maxLength: 100 } }}
        />
        <TextField
          select
          size="small"
          label={translate('video.monitoring.days')}
          value={days}
          onChange={(e) => {
            setDays(Number(e.target.value));
            setPage(0);
          }}
          sx={{ width: 100 }}
        >
          {[1, 3, 7].map((n) => (
            <MenuItem key={n} value={n}>
              {n}
            </MenuItem>
          ))}
        </TextField>
        <FormControlLabel
          control={
            <Switch
              checked={stopped}
              onChange={(e) => {
                setStopped(e.target.checked);
                setPage(0);
              }}
            />
          }
          label={translate('video.monitoring.onlyStopped')}
        />
        {data && (
          <>
            <Chip label={translate('video.monitoring.recorders', { count: data.count })} />
            <Chip
              color={data.stopped ? 'error' : 'default'}
              label={translate('video.monitoring.stopped', { count: data.stopped })}
              data-testid="video-stopped-count"
            />
          </>
        )}
      </Box>
      {data && (
        <>
          <Table size="small" data-testid="video-monitoring-table">
            <TableHead>
              <TableRow>
                <TableCell>{translate('video.monitoring.vehicle')}</TableCell>
                <TableCell>{translate('video.monitoring.camera')}</TableCell>
                <TableCell />
                <TableCell>{translate('video.monitoring.lastContact')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {data.list.flatMap((recorder) =>
                recorder.cameras.map((camera, i) => (
                  <TableRow
                    key={`${recorder.dvrId}-${camera.index}`}
                    sx={recorder.stoppedAt ? { bgcolor: 'rgba(229,57,53,0.06)' } : undefined}
                  >
                    {i === 0 && (
                      <TableCell rowSpan={recorder.cameras.length} sx={{ verticalAlign: 'top' }}>
                        <Typography
                          variant="body2"
                          sx={{ fontWeight: 600 }}
                        >{`${recorder.depotNumber ?? recorder.vehicleId} · ${recorder.stateNumber ?? ''}`}</Typography>
                        {recorder.stoppedAt && (
                          <Typography variant="caption" color="error" data-testid="video-recorder-stopped">
                            {translate('video.monitoring.stoppedAt', { at: formatDateTime(recorder.stoppedAt, { seconds: false }) })}
                          </Typography>
                        )}
                      </TableCell>
                    )}
                    <TableCell>{`${camera.index}. ${camera.title}`}</TableCell>
                    <TableCell>
                      <CoverageGrid hours={camera.hours} start={data.start} />
                    </TableCell>
                    {i === 0 && (
                      <TableCell rowSpan={recorder.cameras.length} sx={{ verticalAlign: 'top', whiteSpace: 'nowrap' }}>
                        {recorder.lastContact ? formatDateTime(recorder.lastContact) : translate('video.monitoring.never')}
                      </TableCell>
                    )}
                  </TableRow>
                )),
              )}
            </TableBody>
          </Table>
          <TablePagination
            component="div"
            count={data.count}
            page={page}
            rowsPerPage={50}
            rowsPerPageOptions={[]}
            onPageChange={(_, next) => setPage(next)}
          />
        </>
      )}
    </Box>
  );
}
