import { List, ListItemButton, ListItemText, ListSubheader } from '@mui/material';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import { Link } from 'react-router';
import { HANDBOOKS } from '../../../schemas/index';
import { useT } from '../../web/i18n/translate';
import { useCurrentUser, useSwitches } from '../../web/stores/sessionStore';
import { FIELD_HANDBOOK_TYPES, handbookListPath, mayReadHandbook } from './fieldHandbooks';

/** /handbooks: the field app's handbooks the user may read (field-app spec 2.1, 2.6). */
export default function HandbookIndexScreen() {
  const t = useT();
  const user = useCurrentUser();
  const switches = useSwitches();
  const types = FIELD_HANDBOOK_TYPES.filter((type) => mayReadHandbook(user, switches, type));
  return (
    <List data-testid="handbook-index" subheader={<ListSubheader>{t('mobile.handbooks.index')}</ListSubheader>}>
      {types.map((type) => (
        <ListItemButton key={type} component={Link} to={handbookListPath(type)} data-testid={`handbook-${type}`} divider>
          <ListItemText primary={HANDBOOKS[type].title} />
          <ChevronRightIcon color="action" />
        </ListItemButton>
      ))}
    </List>
  );
}
