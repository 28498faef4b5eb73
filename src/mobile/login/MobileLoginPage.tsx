import { Box, Card, CardContent } from '@mui/material';
import { useLocation } from 'react-router';
import type { CurrentUser } from '../../shared/api';
import { switchesOf } from '../../shared/routeAccess';
import { PRIMARY_COLOR } from '../../shared/constants';
import { useT } from '../../client/i18n/translate';
import { LoginForm } from '../../client/login/LoginForm';
import { ProductTitle } from '../../client/login/ProductTitle';
import { loginTarget } from '../access';

const preloadApp = () => void import('../MobileApp');

/**
 * The login screen of the field app. It replaces every route while nobody is logged in (field-app spec 2.1:
 * there is no login route), so the address stays; after login the user goes on to that address when it is a
 * section or the about page, otherwise to the landing page. The console's form: the same call and messages.
 */
export default function MobileLoginPage() {
  const t = useT();
  const { pathname, search } = useLocation();
  const landing = (user: CurrentUser) => loginTarget(user, switchesOf(user), `${pathname}${search}`);
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
          <LoginForm landing={landing} preload={preloadApp} />
        </CardContent>
      </Card>
    </Box>
  );
}
