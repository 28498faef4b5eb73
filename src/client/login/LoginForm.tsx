import { useState, type FormEvent } from 'react';
import { Alert, Box, Button, CircularProgress, TextField, Typography } from '@mui/material';
import { useNavigate } from 'react-router';
import type { CurrentUser } from '../../shared/api';
import { landingPath } from '../../shared/permissions';
import { switchesOf } from '../../shared/routeAccess';
import { useT } from '../i18n/translate';
import { login } from '../providers/session';
import { getLocale } from '../stores/localeStore';
import { loginErrorText } from './loginError';

type Field = 'username' | 'password';

export interface LoginFormProps {
  /** Where to go once logged in; by default the console's landing page of the user. */
  landing?: (user: CurrentUser) => string;
  /** Starts loading the code of the logged-in app while the server checks the password; by default the console's. */
  preload?: () => void;
}

const consoleLanding = (user: CurrentUser) => landingPath(user, switchesOf(user));
const preloadConsole = () => void import('../ConsoleApp');

/**
 * Login form of spec section 2: both fields required, disabled while processing, first server message shown.
 * The field app reuses it with its own landing and preload.
 */
export function LoginForm({ landing = consoleLanding, preload = preloadConsole }: LoginFormProps = {}) {
  const t = useT();
  const navigate = useNavigate();
  const [values, setValues] = useState<Record<Field, string>>({ username: '', password: '' });
  const [submitted, setSubmitted] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const missing: Record<Field, boolean> = { username: values.username.trim() === '', password: values.password === '' };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (missing.username || missing.password || pending) return;
    setPending(true);
    setError(null);
    preload(); // the app's code loads while the server checks the password
    try {
      const user = await login(values.username.trim(), values.password);
      void navigate(landing(user), { replace: true });
    } catch (failure) {
      setError(loginErrorText(failure, getLocale()));
      setPending(false);
    }
  };

  const field = (name: Field, label: string, extra: { type?: string; autoComplete: string; autoFocus?: boolean }) => (
    <TextField
      {...extra}
      name={name}
      label={label}
      value={values[name]}
      onChange={(event) => setValues((v) => ({ ...v, [name]: event.target.value }))}
      disabled={pending}
      error={submitted && missing[name]}
      helperText={submitted && missing[name] ? t('login.required') : ' '}
      variant="outlined"
      margin="dense"
      size="medium"
      fullWidth
    />
  );

  return (
    <Box component="form" noValidate onSubmit={submit} data-testid="login-form">
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>{t('login.heading')}</Typography>
      {field('username', t('login.username'), { autoComplete: 'username', autoFocus: true })}
      {field('password', t('login.password'), { type: 'password', autoComplete: 'current-password' })}
      {error && <Alert severity="error" sx={{ mb: 2 }} data-testid="login-error">{error}</Alert>}
      <Button type="submit" variant="contained" size="large" fullWidth disabled={pending} data-testid="login-submit"
        startIcon={pending ? <CircularProgress size={18} color="inherit" data-testid="login-spinner" /> : null}>
        {t('login.submit')}
      </Button>
    </Box>
  );
}
