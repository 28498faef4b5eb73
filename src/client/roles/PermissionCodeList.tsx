import { Box, Card, CardContent, Checkbox, CircularProgress, FormControlLabel, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { PermissionMap } from '../../shared/permissions';
import { applyCode, codeState, type PermissionsChange } from './permissionMatrix';
import { usePermissionCodes } from './usePermissionCodes';

interface PermissionCodeListProps {
  permissions: PermissionMap;
  onChange: PermissionsChange;
  readOnly: boolean;
}

/**
 * The named permission codes (GET /api/v1/roles/codes) as checkboxes: ticking grants the code's bits in
 * the matrix, unticking clears them; a code is ticked when all its bits are there, half-ticked when some.
 */
export function PermissionCodeList({ permissions, onChange, readOnly }: PermissionCodeListProps) {
  const translate = useTranslate();
  const { codes, loading } = usePermissionCodes();
  return (
    <Card variant="outlined">
      <CardContent>
        <Typography variant="h6" component="h2">
          {translate('roles.codes.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {translate('roles.codes.hint')}
        </Typography>
        {loading ? (
          <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', color: 'text.secondary' }}>
            <CircularProgress size={16} /> {translate('roles.codes.loading')}
          </Box>
        ) : (
          <Box
            sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr', xl: '1fr 1fr 1fr' }, columnGap: 2 }}
            data-testid="permission-codes"
          >
            {codes.map((code) => {
              const state = codeState(permissions, code);
              const meaning = translate(`roles.codes.meanings.c${code.id}`, { _: code.meaning });
              return (
                <FormControlLabel
                  key={code.id}
                  disabled={readOnly}
                  sx={{ alignItems: 'flex-start', mr: 0, '& .MuiFormControlLabel-label': { pt: '9px', fontSize: '0.875rem' } }}
                  control={
                    <Checkbox
                      size="small"
                      checked={state === 'all'}
                      indeterminate={state === 'some'}
                      onChange={(_, on) => onChange((map) => applyCode(map, code, on))}
                      slotProps={{ input: { 'data-testid': `code-${code.id}` } as Record<string, string> }}
                    />
                  }
                  label={
                    <>
                      <Box component="span" sx={{ color: 'text.secondary', mr: 0.75 }}>
                        {code.id}
                      </Box>
                      {meaning}
                    </>
                  }
                />
              );
            })}
          </Box>
        )}
      </CardContent>
    </Card>
  );
}
