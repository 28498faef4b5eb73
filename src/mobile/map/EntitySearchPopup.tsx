import { useState } from 'react';
import { Box, IconButton, Paper, Stack, Tab, Tabs, Typography } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import { useT } from '../../web/i18n/translate';
import { MapTextSearch } from './MapTextSearch';
import { VehicleSearchForm } from './VehicleSearchForm';

type SearchTab = 'vehicle' | 'route' | 'enterprise';

/** The entity search popup (?showEntitiesSearchPopup): a vehicle, a route or an enterprise. */
export function EntitySearchPopup({ onClose }: { onClose: () => void }) {
  const t = useT();
  const [tab, setTab] = useState<SearchTab>('vehicle');
  return (
    <Paper
      elevation={8}
      sx={{ position: 'absolute', inset: 8, zIndex: 1200, display: 'flex', flexDirection: 'column', overflow: 'hidden' }}
      data-testid="entity-search"
    >
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', px: 1.5, pt: 1 }}>
        <Typography variant="subtitle1">{t('fieldMap.search.title')}</Typography>
        <IconButton onClick={onClose} aria-label={t('fieldMap.close')} data-testid="entity-search-close">
          <CloseIcon />
        </IconButton>
      </Stack>
      <Tabs value={tab} onChange={(_, value: SearchTab) => setTab(value)} variant="fullWidth">
        <Tab value="vehicle" label={t('fieldMap.search.tabs.vehicle')} data-testid="entity-search-tab-vehicle" />
        <Tab value="route" label={t('fieldMap.search.tabs.route')} data-testid="entity-search-tab-route" />
        <Tab value="enterprise" label={t('fieldMap.search.tabs.enterprise')} data-testid="entity-search-tab-enterprise" />
      </Tabs>
      <Box sx={{ p: 1.5, pt: 2, overflowY: 'auto', flex: 1 }}>
        {tab === 'vehicle' ? <VehicleSearchForm onDone={onClose} /> : <MapTextSearch key={tab} kind={tab} onDone={onClose} />}
      </Box>
    </Paper>
  );
}
