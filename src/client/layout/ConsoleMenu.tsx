import { useMemo } from 'react';
import { Menu } from 'react-admin';
import { useCurrentUser, useSwitches } from '../../web/stores/sessionStore';
import { MENU_ICONS } from './menuIcons';
import { MenuGroupSection } from './MenuGroupSection';
import { menuSections } from './menuSections';

/** The side menu, built from the shared route table for the current user (spec section 2). */
export function ConsoleMenu() {
  const user = useCurrentUser();
  const switches = useSwitches();
  const sections = useMemo(() => menuSections(user, switches), [user, switches]);
  return (
    <Menu data-testid="console-menu">
      {sections.map((section) =>
        section.flat ? (
          section.entries.map((entry) => (
            <Menu.Item
              key={entry.path}
              to={entry.to}
              primaryText={entry.label}
              leftIcon={MENU_ICONS[section.group]}
              data-testid="menu-entry"
              data-path={entry.path}
            />
          ))
        ) : (
          <MenuGroupSection key={section.group} section={section} />
        ),
      )}
    </Menu>
  );
}
