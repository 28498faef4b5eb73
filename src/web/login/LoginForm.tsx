import { useId, useState, type ChangeEvent, type FormEvent } from 'react';
import { Alert, Box, Button, CircularProgress, FormControl, FormHelperText, InputLabel, OutlinedInput, Typography } from '@mui/material';
import { useNavigate } from 'react-router';
import type { CurrentUser } from '../../shared/api';
import { useT } from '../i18n/translate';
import { login } from '../providers/session';
import { getLocale } from '../stores/localeStore';
import { loginErrorText } from './loginError';

type Field = 'username' | 'password';

/** Where a user goes once logged in. */
export type Landing = (user: CurrentUser) => string;

export interface LoginFormProps {
  /**
   * Loads the code of the logged-in app and gives its landing rule; called on submit, so that it loads while the
   * server checks the password (the login pages carry neither: their JavaScript budget).
   */
  loadApp: () => Promise<Landing>;
}

/**
 * Login form of spec section 2: both fields required, disabled while processing, first server message shown.
 * Each app gives its own code and landing rule.
 */
export function LoginForm({ loadApp }: LoginFormProps) {
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
    try {
      const [user, landing] = await Promise.all([login(values.username.trim(), values.password), loadApp()]);
      void navigate(landing(user), { replace: true });
    } catch (failure) {
      setError(loginErrorText(failure, getLocale()));
      setPending(false);
    }
  };

  const field = (name: Field, label: string, extra: { type?: string; autoComplete: string; autoFocus?: boolean }) => (
    <LoginField
      {...extra}
      name={name}
      label={label}
      value={values[name]}
      onChange={(event) => setValues((v) => ({ ...v, [name]: event.target.value }))}
      disabled={pending}
      error={submitted && missing[name] ? t('login.required') : null}
    />
  );

  return (
    <Box component="form" noValidate onSubmit={submit} data-testid="login-form">
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {t('login.heading')}
      </Typography>
      {field('username', t('login.username'), { autoComplete: 'username', autoFocus: true })}
      {field('password', t('login.password'), { type: 'password', autoComplete: 'current-password' })}
      {error && (
        <Alert severity="error" sx={{ mb: 2 }} data-testid="login-error">
          {error}
        </Alert>
      )}
      <Button
        type="submit"
        variant="contained"
        size="large"
        fullWidth
        disabled={pending}
        data-testid="login-submit"
        startIcon={pending ? <CircularProgress size={18} color="inherit" data-testid="login-spinner" /> : null}
      >
        {t('login.submit')}
      </Button>
    </Box>
  );
}

interface LoginFieldProps {
  name: Field;
  label: string;
  value: string;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  disabled: boolean;
  error: string | null;
  type?: string;
  autoComplete: string;
  autoFocus?: boolean;
}

/**
 * An outlined text field as MUI's TextField draws it, built from its parts: TextField also imports Select and
 * its menu, popover and modal, which the login pages would load for nothing (their JavaScript budget).
 */
function LoginField({ name, label, error, disabled, ...input }: LoginFieldProps) {
  const id = useId();
  return (
    <FormControl variant="outlined" margin="dense" fullWidth error={error !== null} disabled={disabled}>
      <InputLabel htmlFor={id}>{label}</InputLabel>
      <OutlinedInput {...input} id={id} name={name} label={label} aria-describedby={`${id}-helper`} />
      <FormHelperText id={`${id}-helper`}>{error ?? ' '}</FormHelperText>
    </FormControl>
  );
}
