import { Alert, Box, Chip, Stack } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { ImportRun } from '../../shared/gtfs/api';
import { formatNumber } from '../../shared/format';
import { reportOf, type RunReport } from './gtfsApi';
import { GtfsFileTable } from './GtfsFileTable';
import { GtfsNoticeTable } from './GtfsNoticeTable';

type EndStatus = Exclude<ImportRun['status'], 'running'>;
const SEVERITY: Record<EndStatus, 'success' | 'error' | 'warning'> = {
  done: 'success',
  refused: 'error',
  cancelled: 'warning',
  failed: 'error',
};

/** UTC+03:00 for 180. */
const utcOffset = (minutes: number) => {
  const sign = minutes < 0 ? '−' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
};

/** The agency's time zone differed from the operator's: every time was moved, by how much. */
function TimezoneNotice({ timezone }: { timezone: NonNullable<RunReport['timezone']> }) {
  const translate = useTranslate();
  const shift = timezone.operatorOffsetMinutes - timezone.feedOffsetMinutes;
  return (
    <Alert severity="info" sx={{ mt: 1 }} data-testid="gtfs-timezone">
      {translate('gtfs.timezone', {
        feed: timezone.feed,
        feedOffset: utcOffset(timezone.feedOffsetMinutes),
        operatorOffset: utcOffset(timezone.operatorOffsetMinutes),
        shift: `${shift > 0 ? '+' : shift < 0 ? '−' : ''}${Math.abs(shift)}`,
      })}
    </Alert>
  );
}

/** What was written into the handbooks, by kind of record. */
function WrittenCounts({ written }: { written: Record<string, number> }) {
  const translate = useTranslate();
  return (
    <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, mt: 1 }} data-testid="gtfs-written">
      {Object.entries(written)
        .filter(([, n]) => n > 0)
        .map(([kind, n]) => (
          <Chip key={kind} size="small" label={`${translate(`gtfs.counts.${kind}`, { _: kind })}: ${formatNumber(n)}`} />
        ))}
    </Stack>
  );
}

/** The end of an import: its outcome, the time zone conversion, what was written, per file counts, every notice. */
export function GtfsRunReport({ run }: { run: ImportRun }) {
  const translate = useTranslate();
  if (run.status === 'running') return null;
  const report = reportOf(run);
  return (
    <Box data-testid="gtfs-report" data-status={run.status}>
      <Alert severity={SEVERITY[run.status]}>
        {translate(`gtfs.outcome.${run.status}`)}
        {report.message ? ` (${translate(`errors.${report.message}`, { _: report.message })})` : ''}
      </Alert>
      {report.timezone && <TimezoneNotice timezone={report.timezone} />}
      {report.written && <WrittenCounts written={report.written} />}
      <GtfsFileTable files={report.files} />
      {(run.status === 'done' || run.status === 'refused') && <GtfsNoticeTable notices={report.notices} />}
    </Box>
  );
}
