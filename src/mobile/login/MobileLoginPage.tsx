import { useRef } from 'react';
import { Box, Card, CardContent } from '@mui/material';
import { useLocation } from 'react-router';
import { PRIMARY_COLOR } from '../../shared/constants';
import { switchesOf } from '../../shared/modules';
import { useT } from '../../web/i18n/translate';
import { LoginForm, type Landing } from '../../web/login/LoginForm';
import { ProductTitle } from '../../web/login/ProductTitle';
import { loadFieldMapStream, opensOnMap, preloadFieldMap } from '../map/loadFieldMap';

/** The field app's code (and the map's, when it is the landing screen): asked once, the modules keep it. */
function fetchApp() {
  const app = Promise.all([import('../access'), import('../MobileApp')]);
  preloadFieldMap(); // asked after the app's files, which the phone needs first
  return app;
}

/**
 * The field app's code and its landing rule (access.ts), loaded while the server checks the password. Landing
 * on the map, the map's live stream opens with the login's answer, while the app and the map start.
 */
async function loadApp(requested: string): Promise<Landing> {
  const [[{ loginTarget }], stream] = await Promise.all([fetchApp(), opensOnMap() ? loadFieldMapStream() : null]);
  return (user) => {
    const target = loginTarget(user, switchesOf(user), requested);
    if (target === '/map') stream?.openFieldMapStream(user);
    return target;
  };
}

/**
 * The app's code is fetched (and run) while the user types, so that after the login press only the login call
 * and the first picture remain (on 3G the code alone is seconds). It starts with the first key or touch in the
 * form, not with the screen: the first screen loads nothing more (its JavaScript budget), and a phone that
 * never logs in fetches nothing.
 */
function prefetchApp() {
  void fetchApp().catch(() => undefined); // a failure is the submit's to report, when it asks again
}

/**
 * The login screen of the field app. It replaces every route while nobody is logged in (field-app spec 2.1:
 * there is no login route), so the address stays; after login the user goes on to that address when it is a
 * section or the about page, otherwise to the landing page. The console's form: the same call and messages.
 */
export default function MobileLoginPage() {
  const t = useT();
  const { pathname, search } = useLocation();
  const prefetched = useRef(false);
  const prefetchOnce = () => {
    if (prefetched.current) return;
    prefetched.current = true;
    prefetchApp();
  };
  return (
    <Box
      data-testid="mobile-login"
      sx={{
        minHeight: '100dvh',
        display: 'flex',
        flexDirection: 'column',
        justifyContent: 'center',
        px: 2,
        py: 3,
        background: `linear-gradient(170deg, ${PRIMARY_COLOR} 0%, #0b5394 45%, #e8eef5 45.1%, #f4f6f9 100%)`,
      }}
    >
      <Card elevation={6} sx={{ width: '100%', maxWidth: 420, mx: 'auto' }}>
        <CardContent sx={{ p: 3, '&:last-child': { pb: 3 } }}>
          <ProductTitle subtitle={t('mobile.subtitle')} />
          <Box onKeyDownCapture={prefetchOnce} onPointerDownCapture={prefetchOnce} onInputCapture={prefetchOnce}>
            <LoginForm loadApp={() => loadApp(`${pathname}${search}`)} />
          </Box>
        </CardContent>
      </Card>
    </Box>
  );
}
