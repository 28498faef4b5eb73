import { Box, Typography } from '@mui/material';
import type { OnlineVehicle } from '../../shared/map';
import type { VideoVehicle } from '../../shared/video/api';
import { fullName } from '../../web/map/mapFormat';
import { useT } from '../../web/i18n/translate';

/** The type's name from the user's transport types (the code when unknown). */
export function typeNameOf(code: string | null | undefined, types: { code: string; title: string }[] | undefined): string {
  return (code && types?.find((type) => type.code === code)?.title) ?? code ?? '';
}

/** Field-app spec 2.4: the info panel of the video screen: type, model, plate, garage number, route, driver, branch. */
export function VehicleInfoPanel({ vehicle, info, typeName }: { vehicle: VideoVehicle; info: OnlineVehicle | null; typeName: string }) {
  const t = useT();
  const rows: [string, string][] = [
    ['type', typeName],
    ['model', info?.model ?? vehicle.model ?? ''],
    ['plate', info?.gosNomer ?? vehicle.stateNumber ?? ''],
    ['garage', String(info?.depotNumber ?? vehicle.depotNumber ?? '')],
    ['route', info?.route ?? ''],
    ['driver', info ? fullName(info.driverLastName, info.driverFirstName, info.driverMiddleName) : ''],
    ['branch', info?.branch ?? ''],
  ];
  return (
    <Box
      component="dl"
      sx={{
        m: 0,
        px: 2,
        py: 1,
        bgcolor: 'grey.50',
        borderBottom: 1,
        borderColor: 'divider',
        display: 'grid',
        gridTemplateColumns: 'auto 1fr',
        columnGap: 2,
        rowGap: 0.5,
      }}
      data-testid="video-info-panel"
    >
      {rows.map(([key, value]) => [
        <Typography key={`${key}-label`} component="dt" variant="body2" color="text.secondary">
          {t(`mobile.video.fields.${key}`)}
        </Typography>,
        <Typography key={`${key}-value`} component="dd" variant="body2" sx={{ m: 0, fontWeight: 500 }} data-testid={`video-info-${key}`}>
          {value || '—'}
        </Typography>,
      ])}
    </Box>
  );
}
