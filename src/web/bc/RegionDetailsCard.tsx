import { Box, IconButton, Paper, Typography } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import { useT } from '../i18n/translate';
import { useApiQuery } from '../providers/queries';
import { bcApi } from './bcApi';

/** A control region's details (field-app spec 2.3): closed orders today, department address, id and name, workers. */
export function RegionDetailsCard({ regionId, onClose }: { regionId: number; onClose: () => void }) {
  const t = useT();
  const { data: region } = useApiQuery(['bc', 'region', regionId], (signal) => bcApi.region(regionId, signal));
  if (!region) return null;
  const rows: [string, string | number][] = [
    ['bc.map.region', `${region.cd_id} · ${region.cd_name}`],
    ['bc.fields.department', region.td_name ?? '—'],
    ['bc.map.address', region.td_adress ?? '—'],
    ['bc.map.closedCount', region.closed_count],
    ['bc.map.workersTotal', region.workers_total],
    ['bc.map.workersOnTask', region.workers_on_task],
  ];
  return (
    <Paper elevation={3} sx={{ p: 1.5, position: 'relative' }} data-testid="region-details">
      <IconButton size="small" onClick={onClose} sx={{ position: 'absolute', right: 4, top: 4 }} aria-label="close">
        <CloseIcon fontSize="small" />
      </IconButton>
      {rows.map(([label, value]) => (
        <Box key={label} sx={{ display: 'flex', gap: 1, pr: 4 }}>
          <Typography variant="body2" color="text.secondary">
            {t(label)}:
          </Typography>
          <Typography variant="body2">{value}</Typography>
        </Box>
      ))}
    </Paper>
  );
}
