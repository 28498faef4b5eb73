import { useState } from 'react';
import { Box, Button, Stack, Typography } from '@mui/material';
import { Title } from 'react-admin';
import { Link, useLocation } from 'react-router';
import { formatNumber } from '../../shared/format';
import { useRights } from '../../web/components/useRights';
import { useT } from '../../web/i18n/translate';
import { refreshQueries, useApiQuery } from '../../web/providers/queries';
import { group, groupRollouts } from './equipmentApi';
import type { RolloutRow } from '../../shared/equipment/api';
import { RolloutCard } from './RolloutCard';
import { RolloutCommandTable } from './RolloutCommandTable';
import { RolloutForm } from './RolloutForm';

const PATH = '/mnt-configuration/configurations';
const REFRESH_MS = 2000;
const isLive = (rollouts: readonly RolloutRow[] | undefined) =>
  Boolean(rollouts?.some((r) => r.state === 'running' || r.state === 'paused'));

/** /mnt-configuration/configuration/{group_id} (code 32): roll a configuration out to the group and follow it live. */
export default function RolloutScreen() {
  const t = useT();
  const rights = useRights(PATH);
  const { pathname } = useLocation();
  const groupId = Number(/\/configuration\/(\d+)/.exec(pathname)?.[1]);
  const rolloutsKey = ['equipment', 'rollouts', groupId];
  const { data: details } = useApiQuery(['equipment', 'group', groupId], () => group(groupId), { enabled: Boolean(groupId) });
  // a live rollout is followed by asking again; a finished or cancelled one stops it
  const history = useApiQuery(rolloutsKey, () => groupRollouts(groupId), {
    enabled: Boolean(groupId),
    refetchInterval: (list) => isLive(list) && REFRESH_MS,
  });
  const rollouts = history.data ?? [];
  const live = isLive(rollouts);
  // null: the newest rollout, until one is chosen
  const [chosen, setChosen] = useState<number | null>(null);
  const selected = chosen ?? rollouts[0]?.id ?? null;
  const refresh = () => void refreshQueries(rolloutsKey);

  return (
    <Box sx={{ p: 2 }}>
      <Title title={t('equipment.rollout.title', { name: details?.name ?? '' })} />
      <Stack spacing={2}>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
          <Button component={Link} to="/mnt-configuration/vehicle-groups" size="small">
            {t('equipment.rollout.back')}
          </Button>
          <Typography variant="h6">{details?.name}</Typography>
          <Typography data-testid="rollout-group-count">
            {details ? t('equipment.rollout.groupVehicles', { count: formatNumber(details.count) }) : ''}
          </Typography>
        </Stack>
        {rights.create && !live && (
          <RolloutForm
            groupId={groupId}
            onStarted={() => {
              setChosen(null);
              refresh();
            }}
          />
        )}
        <Typography variant="subtitle1">{t('equipment.rollout.history')}</Typography>
        {history.isError && <Typography color="error">{t('loadFailed')}</Typography>}
        {!rollouts.length && !history.isError && <Typography color="text.secondary">{t('equipment.rollout.none')}</Typography>}
        {rollouts.map((r) => (
          <RolloutCard
            key={r.id}
            rollout={r}
            selected={r.id === selected}
            canChange={rights.update}
            onSelect={() => setChosen(r.id)}
            onChanged={refresh}
          />
        ))}
        {selected !== null && <RolloutCommandTable groupId={groupId} rolloutId={selected} refreshMs={live ? REFRESH_MS : undefined} />}
      </Stack>
    </Box>
  );
}
