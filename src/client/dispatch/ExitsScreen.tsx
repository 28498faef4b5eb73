import { Box, Paper, Stack, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import { Title } from 'react-admin';
import { useSearchParams } from 'react-router';
import { serviceDayAt } from '../../shared/dispatch/api';
import { DateField } from '../bc/DateField';
import { useT } from '../../web/i18n/translate';
import { useExits, useOptions } from '../../web/dispatch/dispatchApi';
import { idsFrom } from '../../web/dispatch/dispatchFormat';
import { DispatchError } from '../../web/dispatch/DispatchError';
import { DispatchIdSelect } from './DispatchIdSelect';
import { ExitsTable } from './ExitsTable';

/**
 * /dispatch/exits «План и факт» (code 44): a day's exits of a route or a depot, each run's planned and actual
 * start and end from the stored stop passages, its deviation, performed or not. The choice is the address
 * (?date=&route= or &by=depot&depot=), so a link reproduces it.
 */
export default function ExitsScreen() {
  const t = useT();
  const [params, setParams] = useSearchParams();
  const date = params.get('date') ?? serviceDayAt(Date.now());
  const scope = params.get('by') === 'depot' || (params.get('depot') !== null && params.get('route') === null) ? 'depot' : 'route';
  const id = idsFrom(params.get(scope))[0];
  const options = useOptions();
  const exits = useExits(date, scope === 'route' ? { route: id } : { depot: id });
  const set = (changes: Record<string, string | null>) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [name, value] of Object.entries(changes)) {
          if (value) next.set(name, value);
          else next.delete(name);
        }
        return next;
      },
      { replace: true },
    );
  const choices = scope === 'route' ? (options.data?.routes ?? []) : (options.data?.depots ?? []);

  return (
    <Box sx={{ p: 2 }} data-testid="dispatch-exits">
      <Title title={t('menu.dispatch.exits')} />
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
        <DateField
          label={t('dispatch.filters.date')}
          value={date}
          onChange={(value) => value && set({ date: value })}
          testId="exits-date"
        />
        <ToggleButtonGroup
          size="small"
          exclusive
          value={scope}
          onChange={(_, next: string | null) => next && next !== scope && set({ by: next, route: null, depot: null })}
        >
          <ToggleButton value="route" sx={{ textTransform: 'none' }}>
            {t('dispatch.filters.byRoute')}
          </ToggleButton>
          <ToggleButton value="depot" sx={{ textTransform: 'none' }} data-testid="exits-scope-depot">
            {t('dispatch.filters.byDepot')}
          </ToggleButton>
        </ToggleButtonGroup>
        <DispatchIdSelect
          multiple={false}
          label={t(scope === 'route' ? 'dispatch.filters.route' : 'dispatch.filters.depot')}
          options={choices}
          value={id === undefined ? [] : [id]}
          onChange={(ids) => set({ [scope]: ids.length ? String(ids[0]) : null })}
          testId="exits-scope"
        />
      </Stack>
      <DispatchError error={exits.error ?? options.error} />
      {id === undefined && (
        <Typography sx={{ mt: 2 }} color="text.secondary">
          {t('dispatch.exits.choose')}
        </Typography>
      )}
      {exits.data && (
        <>
          <Typography variant="body2" sx={{ my: 1 }} data-testid="exits-totals">
            {t('dispatch.exits.totals', exits.data.totals)}
          </Typography>
          <Paper variant="outlined" sx={{ overflowX: 'auto' }}>
            {exits.data.list.length ? (
              <ExitsTable runs={exits.data.list} />
            ) : (
              <Typography sx={{ p: 2 }} color="text.secondary">
                {t('dispatch.exits.empty')}
              </Typography>
            )}
          </Paper>
        </>
      )}
    </Box>
  );
}
