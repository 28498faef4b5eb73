import { useState } from 'react';
import { Box, Divider, List, ListItemButton, ListItemText, MenuItem, Paper, Stack, TextField, Typography } from '@mui/material';
import { CircleMarker, Tooltip } from 'react-leaflet';
import { useNavigate } from 'react-router';
import { Title } from 'react-admin';
import { formatClock } from '../../shared/format';
import { BaseMap } from '../../web/map/base/BaseMap';
import { ControlRegionsLayer } from '../../web/map/layers/ControlRegionsLayer';
import { ControllersLayer } from '../../web/map/layers/ControllersLayer';
import { useT } from '../../web/i18n/translate';
import { RegionDetailsCard } from '../../web/bc/RegionDetailsCard';
import { StatusChip } from '../../web/bc/TaskResultView';
import { useDepartmentMap } from '../../web/bc/useDepartmentMap';
import { useBcOptions } from './useBcOptions';

/**
 * /bc/departmentcontroll: departments, their control regions and today's orders, with the controllers' last
 * positions from the field app; the same data as the field app's department-control mode. A region opens its
 * details, an order its report.
 */
export default function DepartmentControlScreen() {
  const t = useT();
  const navigate = useNavigate();
  const options = useBcOptions();
  const [department, setDepartment] = useState<number | ''>('');
  const data = useDepartmentMap(department === '' ? null : [department]);
  const [region, setRegion] = useState<number | null>(null);

  return (
    <Box sx={{ display: 'flex', height: 'calc(100dvh - 48px)', overflow: 'hidden' }}>
      <Title title="menu.bc.departmentcontroll" />
      <Paper square variant="outlined" sx={{ width: 320, flexShrink: 0, overflowY: 'auto', p: 1.5 }} data-testid="department-panel">
        <TextField
          select
          fullWidth
          size="small"
          label={t('bc.fields.department')}
          value={department}
          onChange={(e) => setDepartment(e.target.value === '' ? '' : Number(e.target.value))}
        >
          <MenuItem value="">{t('bc.orders.allDepartments')}</MenuItem>
          {options?.departments.map((d) => (
            <MenuItem key={d.id} value={d.id}>
              {d.name}
            </MenuItem>
          ))}
        </TextField>
        <Typography variant="subtitle2" sx={{ mt: 2 }}>
          {t('bc.map.today')}
        </Typography>
        <List dense disablePadding>
          {data?.tasks.map((task) => (
            <ListItemButton key={task.id} onClick={() => navigate(`/bc/result/${task.id}`)} data-testid="department-task">
              <ListItemText primary={task.number} secondary={task.workers.map((w) => w.fio).join(', ')} />
              <StatusChip status={task.status} />
            </ListItemButton>
          ))}
          {data && !data.tasks.length && (
            <Typography variant="body2" color="text.secondary">
              {t('bc.map.noTasks')}
            </Typography>
          )}
        </List>
        <Divider sx={{ my: 1 }} />
        <Typography variant="subtitle2">{t('bc.map.controllers')}</Typography>
        <List dense disablePadding>
          {data?.controllers.map((c) => (
            <ListItemText
              key={c.user_id}
              primary={c.fio}
              secondary={formatClock(c.at, { seconds: false })}
              data-testid="department-controller"
              sx={{ px: 2 }}
            />
          ))}
          {data && !data.controllers.length && (
            <Typography variant="body2" color="text.secondary">
              {t('bc.map.noControllers')}
            </Typography>
          )}
        </List>
      </Paper>
      <Box sx={{ position: 'relative', flex: 1, minWidth: 0 }}>
        <BaseMap testId="department-map">
          {data && <ControlRegionsLayer regions={data.regions} fit onRegionClick={(r) => setRegion(r.cd_id)} />}
          {data?.departments
            .filter((d) => d.lat !== null && d.lon !== null)
            .map((d) => (
              <CircleMarker
                key={d.td_id}
                center={[d.lat!, d.lon!]}
                radius={8}
                pathOptions={{ color: '#fff', weight: 2, fillColor: d.td_color, fillOpacity: 1 }}
              >
                <Tooltip>{`${d.td_name}, ${d.td_adress}`}</Tooltip>
              </CircleMarker>
            ))}
          {data && <ControllersLayer controllers={data.controllers} />}
        </BaseMap>
        {region !== null && (
          <Stack sx={{ position: 'absolute', top: 12, right: 12, zIndex: 1000, width: 300 }}>
            <RegionDetailsCard key={region} regionId={region} onClose={() => setRegion(null)} />
          </Stack>
        )}
      </Box>
    </Box>
  );
}
