import { useState } from 'react';
import { Chip, List, ListItem, ListItemIcon, ListItemText, Stack } from '@mui/material';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import RemoveCircleOutlineIcon from '@mui/icons-material/RemoveCircleOutlineOutlined';
import { useT } from '../../web/i18n/translate';
import type { AboutInfo } from './aboutApi';
import { MODULE_FILTERS, inFilter, type ModuleFilter } from './moduleFilters';

/** The modules with their on/off state, under the module filter. */
export function ModuleList({ modules }: { modules: AboutInfo['modules'] }) {
  const t = useT();
  const [filter, setFilter] = useState<ModuleFilter>('all');
  const shown = modules.filter((module) => inFilter(module.id, filter));
  return (
    <Stack spacing={1}>
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }} role="group" aria-label={t('about.modules')}>
        {MODULE_FILTERS.map((id) => (
          <Chip
            key={id}
            label={t(`moduleFilters.${id}`)}
            color={filter === id ? 'primary' : 'default'}
            variant={filter === id ? 'filled' : 'outlined'}
            onClick={() => setFilter(id)}
            aria-pressed={filter === id}
          />
        ))}
      </Stack>
      <List dense data-testid="about-modules">
        {shown.map((module) => (
          <ListItem
            key={module.id}
            secondaryAction={
              <Chip
                size="small"
                variant="outlined"
                color={module.enabled ? 'success' : 'default'}
                label={t(module.enabled ? 'about.enabled' : 'about.disabled')}
              />
            }
          >
            <ListItemIcon sx={{ minWidth: 36 }}>
              {module.enabled ? (
                <CheckCircleIcon color="success" fontSize="small" />
              ) : (
                <RemoveCircleOutlineIcon color="disabled" fontSize="small" />
              )}
            </ListItemIcon>
            <ListItemText primary={t(`modules.${module.id}`)} sx={{ color: module.enabled ? 'text.primary' : 'text.disabled' }} />
          </ListItem>
        ))}
      </List>
    </Stack>
  );
}
