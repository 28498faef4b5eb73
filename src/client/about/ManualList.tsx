import { List, ListItem, ListItemIcon, ListItemText } from '@mui/material';
import MenuBookIcon from '@mui/icons-material/MenuBook';
import { useT } from '../../web/i18n/translate';
import type { AboutInfo } from './aboutApi';

/** The manuals: administrator and operator guides; the controller guide is shown disabled. */
export function ManualList({ manuals }: { manuals: AboutInfo['manuals'] }) {
  const t = useT();
  return (
    <List dense data-testid="about-manuals">
      {manuals.map((manual) => (
        <ListItem key={manual.id} aria-disabled={!manual.enabled} sx={{ opacity: manual.enabled ? 1 : 0.45 }}>
          <ListItemIcon sx={{ minWidth: 36 }}>
            <MenuBookIcon fontSize="small" color={manual.enabled ? 'primary' : 'disabled'} />
          </ListItemIcon>
          <ListItemText
            primary={t(`about.manualList.${manual.id}`)}
            secondary={`${t('about.manualVersion', { version: manual.version })}${manual.enabled ? '' : ` — ${t('about.manualUnavailable')}`}`}
          />
        </ListItem>
      ))}
    </List>
  );
}
