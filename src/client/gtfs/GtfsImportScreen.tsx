import { Box, Paper, Stack } from '@mui/material';
import { useSearchParams } from 'react-router';
import { Title } from 'react-admin';
import { useRights } from '../../web/components/useRights';
import { useImportRun } from './gtfsApi';
import { GtfsDownloadButton } from './GtfsDownloadButton';
import { GtfsImportHistory } from './GtfsImportHistory';
import { GtfsRunPanel } from './GtfsRunPanel';
import { GtfsUpload } from './GtfsUpload';

/** The run in view is in the address (?run=12), so a reload or a shared link keeps following it. */
function useRunInView(): [number | null, (id: number | null) => void] {
  const [search, setSearch] = useSearchParams();
  const raw = Number(search.get('run'));
  const id = Number.isInteger(raw) && raw > 0 ? raw : null;
  return [id, (next) => setSearch(next === null ? {} : { run: String(next) }, { replace: true })];
}

/**
 * /import-data/gtfs (code 6, the external-system settings of the handbooks): a GTFS feed into the handbooks.
 * The zip uploads with its progress, then the import's stages (check, write) are followed until its report; a
 * running import can be cancelled. The history lists the earlier imports, each opening its report. The network
 * downloads as a GTFS feed.
 */
export default function GtfsImportScreen() {
  const rights = useRights('/import-data/gtfs');
  const [runId, setRunId] = useRunInView();
  // the same query as the panel's (one request): no second upload while the import in view runs
  const { data: run } = useImportRun(runId);
  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }}>
      <Title title="menu.importData.gtfs" />
      <Paper sx={{ p: 2, mb: 2 }}>
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 2, alignItems: 'center' }}>
          {rights.update && <GtfsUpload disabled={run?.status === 'running'} onStarted={setRunId} />}
          <GtfsDownloadButton />
        </Stack>
        {runId !== null && <GtfsRunPanel key={runId} id={runId} canCancel={rights.update} onClose={() => setRunId(null)} />}
      </Paper>
      <GtfsImportHistory selected={runId} onOpen={setRunId} />
    </Box>
  );
}
