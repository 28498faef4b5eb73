import { Box, Stack, Typography } from '@mui/material';
import { useListContext, useTranslate } from 'react-admin';
import { getJson } from '../../web/providers/httpClient';
import { useApiQuery } from '../../web/providers/queries';
import { USERS_API } from '../../web/providers/resources/users';

interface UsersInfo {
  total: number;
  blocked: number;
  online: number;
}

function Figure({ label, value, testId }: { label: string; value: number | undefined; testId: string }) {
  return (
    <Box sx={{ px: 2, py: 0.5, borderLeft: 3, borderColor: 'primary.main', minWidth: 110 }}>
      <Typography variant="caption" color="text.secondary" component="div">
        {label}
      </Typography>
      <Typography variant="h6" component="div" data-testid={testId}>
        {value ?? '—'}
      </Typography>
    </Box>
  );
}

/** GET /api/v1/users/info above the list: total, blocked, online; reloaded whenever the list reloads. */
export function UserInfoSummary() {
  const translate = useTranslate();
  // asked again each time the list has loaded (a user blocked, created or removed changes the figures)
  const { isFetching } = useListContext();
  const { data: info } = useApiQuery(['users', 'info'], (signal) => getJson<UsersInfo>(`${USERS_API}/info`, { signal }), {
    enabled: !isFetching,
  });
  return (
    <Stack direction="row" spacing={2} sx={{ px: 2, pt: 1.5, pb: 1 }} data-testid="users-info">
      <Figure label={translate('users.info.total')} value={info?.total} testId="users-info-total" />
      <Figure label={translate('users.info.blocked')} value={info?.blocked} testId="users-info-blocked" />
      <Figure label={translate('users.info.online')} value={info?.online} testId="users-info-online" />
    </Stack>
  );
}
