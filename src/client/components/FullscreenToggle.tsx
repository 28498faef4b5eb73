import { useEffect, useState } from 'react';
import { IconButton, Tooltip } from '@mui/material';
import FullscreenIcon from '@mui/icons-material/Fullscreen';
import FullscreenExitIcon from '@mui/icons-material/FullscreenExit';
import { useT } from '../../web/i18n/translate';

/** Fullscreen toggle of the app bar (Fullscreen API on the whole page). */
export function FullscreenToggle() {
  const t = useT();
  const [active, setActive] = useState(() => document.fullscreenElement !== null);
  useEffect(() => {
    const onChange = () => setActive(document.fullscreenElement !== null);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);
  if (!document.fullscreenEnabled) return null;
  const toggle = () => {
    const change = active ? document.exitFullscreen() : document.documentElement.requestFullscreen();
    change.catch(() => undefined); // refused by the browser (no user gesture, policy): nothing to do
  };
  const label = t(active ? 'app.fullscreen.exit' : 'app.fullscreen.enter');
  return (
    <Tooltip title={label}>
      <IconButton color="inherit" onClick={toggle} aria-label={label}>
        {active ? <FullscreenExitIcon /> : <FullscreenIcon />}
      </IconButton>
    </Tooltip>
  );
}
