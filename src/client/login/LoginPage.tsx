import { Box, Card, CardContent, Link, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { PRIMARY_COLOR } from '../../shared/constants';
import { useT } from '../../web/i18n/translate';
import { switchesOf } from '../../shared/modules';
import { LoginForm, type Landing } from '../../web/login/LoginForm';
import { ProductTitle } from '../../web/login/ProductTitle';

/** The console's code and landing rule, loaded while the server checks the password. */
const loadConsole = async (): Promise<Landing> => {
  const [{ landingPath }] = await Promise.all([import('../../shared/permissions'), import('../ConsoleApp')]);
  return (user) => landingPath(user, switchesOf(user));
};

/** The login screen, at / for a visitor without a session. Loads no react-admin code. */
export default function LoginPage() {
  const t = useT();
  return (
    <Box
      sx={{
        minHeight: '100vh',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        p: 2,
        background: `linear-gradient(160deg, ${PRIMARY_COLOR} 0%, #0b5394 55%, #e8eef5 55.1%, #f4f6f9 100%)`,
      }}
    >
      <Card elevation={8} sx={{ width: '100%', maxWidth: 400 }}>
        <CardContent sx={{ p: 4, '&:last-child': { pb: 4 } }}>
          <ProductTitle />
          <LoginForm loadApp={loadConsole} />
        </CardContent>
      </Card>
      <Typography variant="body2" sx={{ mt: 2 }}>
        <Link component={RouterLink} to="/about" underline="hover" color="text.secondary">
          {t('menu.about')}
        </Link>
      </Typography>
    </Box>
  );
}
