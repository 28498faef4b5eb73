import type { ReactElement } from 'react';
import MapIcon from '@mui/icons-material/Map';
import VideocamIcon from '@mui/icons-material/Videocam';
import PeopleIcon from '@mui/icons-material/People';
import ConfirmationNumberIcon from '@mui/icons-material/ConfirmationNumber';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import SystemUpdateAltIcon from '@mui/icons-material/SystemUpdateAlt';
import MonitorHeartIcon from '@mui/icons-material/MonitorHeart';
import SensorsIcon from '@mui/icons-material/Sensors';
import ReportProblemIcon from '@mui/icons-material/ReportProblem';
import DepartureBoardIcon from '@mui/icons-material/DepartureBoard';
import SettingsIcon from '@mui/icons-material/Settings';
import MenuBookIcon from '@mui/icons-material/MenuBook';
import ListAltIcon from '@mui/icons-material/ListAlt';
import AdminPanelSettingsIcon from '@mui/icons-material/AdminPanelSettings';
import InfoIcon from '@mui/icons-material/Info';
import type { MenuGroup } from '../../shared/routes';

/** The icon of each menu group (and of its single link when the group is shown flat). */
export const MENU_ICONS: Record<MenuGroup, ReactElement> = {
  map: <MapIcon />,
  video: <VideocamIcon />,
  passengers: <PeopleIcon />,
  bc: <ConfirmationNumberIcon />,
  importData: <UploadFileIcon />,
  mntConfiguration: <SystemUpdateAltIcon />,
  monitoring: <MonitorHeartIcon />,
  pdm: <SensorsIcon />,
  adas: <ReportProblemIcon />,
  dispatch: <DepartureBoardIcon />,
  system: <SettingsIcon />,
  handbooks: <MenuBookIcon />,
  journals: <ListAltIcon />,
  administration: <AdminPanelSettingsIcon />,
  about: <InfoIcon />,
};
