import { Box } from '@mui/material';
import { Navigate, useLocation } from 'react-router';
import { Title } from 'react-admin';
import { SETTINGS_PAGES, subsystemOf } from './settingsPages';
import { SubsystemSettings } from './SubsystemSettings';

/** /system/navigation, /video, /passengers, /journals, /bc, /eis: one settings form each. */
export default function SystemSettingsScreen() {
  const { pathname } = useLocation();
  const id = subsystemOf(pathname);
  if (!id) return <Navigate to="/not-found" replace />;
  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }}>
      <Title title={`menu.system.${id}`} />
      <SubsystemSettings key={id} spec={SETTINGS_PAGES[id]} />
    </Box>
  );
}
