import { Alert, Box, IconButton, Typography } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import { useTranslate } from 'react-admin';
import { useCancelImport, useImportRun } from './gtfsApi';
import { GtfsRunReport } from './GtfsRunReport';
import { GtfsRunStages } from './GtfsRunStages';

/**
 * One import, from the moment the server has the file: its stages while it runs (polled), with Cancel for a
 * user who may import, then its report. The same panel shows an earlier import opened from the history.
 */
export function GtfsRunPanel({ id, canCancel, onClose }: { id: number; canCancel: boolean; onClose: () => void }) {
  const translate = useTranslate();
  const { data: run, error } = useImportRun(id);
  const cancel = useCancelImport();
  if (error)
    return (
      <Alert severity="error" sx={{ mt: 2 }} data-testid="gtfs-run-error">
        {translate('gtfs.loadFailed')}
      </Alert>
    );
  if (!run) return null;
  const running = run.status === 'running';
  return (
    <Box sx={{ mt: 2 }} data-testid="gtfs-run" data-id={run.id}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <Typography variant="subtitle1" sx={{ flex: 1 }}>
          {translate('gtfs.run', { id: run.id, file: run.file })}
        </Typography>
        {!running && (
          <IconButton size="small" onClick={onClose} aria-label={translate('gtfs.close')}>
            <CloseIcon fontSize="small" />
          </IconButton>
        )}
      </Box>
      <GtfsRunStages
        stage={run.stage}
        percent={run.stage === 'write' || run.progress > 0 ? Math.round(run.progress * 100) : null}
        onCancel={running && canCancel ? () => cancel.mutate(run.id) : undefined}
        cancelling={cancel.isPending || cancel.isSuccess}
      />
      <GtfsRunReport run={run} />
    </Box>
  );
}
