import { Box, Card, CardContent } from '@mui/material';
import { useLocation } from 'react-router';
import { PRIMARY_COLOR } from '../../shared/constants';
import { switchesOf } from '../../shared/modules';
import { useT } from '../../client/i18n/translate';
import { LoginForm, type Landing } from '../../client/login/LoginForm';
import { ProductTitle } from '../../client/login/ProductTitle';
import { preloadFieldMap } from '../map/loadFieldMap';

/** The field app's code and its landing rule (access.ts), loaded while the server checks the password. */
async function loadApp(requested: string): Promise<Landing> {
  const app = Promise.all([import('../access'), import('../MobileApp')]);
  preloadFieldMap(); // asked after the app's files, which the phone needs first
  const [{ loginTarget }] = await app;
  return (user) => loginTarget(user, switchesOf(user), requested);
}

/**
 * The login screen of the field app. It replaces every route while nobody is logged in (field-app spec 2.1:
 * there is no login route), so the address stays; after login the user goes on to that address when it is a
 * section or the about page, otherwise to the landing page. The console's form: the same call and messages.
 */
export default function MobileLoginPage() {
  const t = useT();
  const { pathname, search } = useLocation();
  return (
    <Box
      data-testid="mobile-login"
      sx={{
        minHeight: '100dvh', display: 'flex', flexDirection: 'column', justifyContent: 'center', px: 2, py: 3,
        background: `linear-gradient(170deg, ${PRIMARY_COLOR} 0%, #0b5394 45%, #e8eef5 45.1%, #f4f6f9 100%)`,
      }}
    >
      <Card elevation={6} sx={{ width: '100%', maxWidth: 420, mx: 'auto' }}>
        <CardContent sx={{ p: 3, '&:last-child': { pb: 3 } }}>
          <ProductTitle subtitle={t('mobile.subtitle')} />
          <LoginForm loadApp={() => loadApp(`${pathname}${search}`)} />
        </CardContent>
      </Card>
    </Box>
  );
}
