import { Divider, ListItemText, MenuItem } from '@mui/material';
import { Logout, UserMenu } from 'react-admin';
import { useCurrentUser } from '../../web/stores/sessionStore';
import { LanguageMenuItems } from './LanguageMenuItems';

/** The user menu: who is logged in, the language switch, logout. */
export function ConsoleUserMenu() {
  const user = useCurrentUser();
  return (
    <UserMenu>
      {user && (
        <MenuItem disabled sx={{ '&.Mui-disabled': { opacity: 1 } }}>
          <ListItemText primary={user.username} secondary={user.title} />
        </MenuItem>
      )}
      {user && <Divider />}
      <LanguageMenuItems />
      <Divider />
      <Logout />
    </UserMenu>
  );
}
