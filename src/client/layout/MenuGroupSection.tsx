import { Box, Collapse, List, ListItemIcon, MenuItem, Typography } from '@mui/material';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { useEffect, useState } from 'react';
import { Menu, useSidebarState, useTranslate } from 'react-admin';
import { useLocation } from 'react-router';
import { MENU_ICONS } from './menuIcons';
import type { MenuSection } from './menuSections';

const bullet = <Box component="span" sx={{ width: 6, height: 6, mx: '9px', borderRadius: '50%', bgcolor: 'currentColor' }} />;

/** A folding menu group (react-admin demo's SubMenu); open while one of its pages is shown. */
export function MenuGroupSection({ section }: { section: MenuSection }) {
  const translate = useTranslate();
  const [sidebarOpen] = useSidebarState();
  const { pathname } = useLocation();
  const active = section.entries.some((entry) => pathname === entry.path || pathname.startsWith(`${entry.path}/`));
  const [open, setOpen] = useState(active);
  useEffect(() => {
    if (active) setOpen(true);
  }, [active]);
  const label = translate(section.label);
  return (
    <>
      <MenuItem
        onClick={() => setOpen(!open)}
        aria-expanded={open}
        data-testid={`menu-group-${section.group}`}
        title={sidebarOpen ? undefined : label}
        sx={{ color: active ? 'text.primary' : 'text.secondary', '& .MuiListItemIcon-root': { minWidth: 40, color: 'inherit' } }}
      >
        <ListItemIcon>{open ? <ExpandMoreIcon /> : MENU_ICONS[section.group]}</ListItemIcon>
        <Typography variant="inherit" noWrap>
          {label}
        </Typography>
      </MenuItem>
      <Collapse in={open} timeout="auto" unmountOnExit>
        <List dense component="div" disablePadding sx={{ '& .MuiMenuItem-root': { pl: sidebarOpen ? 4 : 2 } }}>
          {section.entries.map((entry) => (
            <Menu.Item
              key={entry.path}
              to={entry.to}
              primaryText={entry.label}
              leftIcon={bullet}
              data-testid="menu-entry"
              data-path={entry.path}
            />
          ))}
        </List>
      </Collapse>
    </>
  );
}
