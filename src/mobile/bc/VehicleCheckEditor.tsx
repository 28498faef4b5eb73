import { useRef } from 'react';
import { Button, MenuItem, Paper, Stack, TextField, Typography } from '@mui/material';
import PhotoCameraIcon from '@mui/icons-material/PhotoCameraOutlined';
import { SEIZED_CATEGORIES, soldCap, toOptionalNumber, type TaskResultBody, type VehicleCheck } from '../../shared/bc/report';
import type { TaskResultResponse } from '../../shared/bc/tasks';
import { useT } from '../../web/i18n/translate';
import { CountField } from './CountField';

interface Props {
  body: TaskResultBody;
  index: number;
  loaded: TaskResultResponse;
  photos: number;
  onChange: (check: VehicleCheck) => void;
  onPhoto: (file: File) => void;
}

const soldOf = (check: VehicleCheck, ticketId: number) => check.sell_tickets.find((t) => t.ticket_id === ticketId)?.count ?? 0;

/**
 * One vehicle check (field-app spec 2.5): route number and depot number (lists), driver's personnel number;
 * tickets sold per type, capped by what the other vehicles left of the tickets received; violations; the four
 * seized categories in their fixed order; the report count with a photo from the camera.
 */
export function VehicleCheckEditor({ body, index, loaded, photos, onChange, onPhoto }: Props) {
  const t = useT();
  const camera = useRef<HTMLInputElement>(null);
  const check = body.check_vehicles[index];
  const set = (patch: Partial<VehicleCheck>) => onChange({ ...check, ...patch });
  const route = loaded.routes.find((r) => r.short_name === check.route_short_name);
  const onRoute = loaded.vehicles.filter((v) => route && v.route_id === route.route_id);
  const vehicles = onRoute.length ? onRoute : loaded.vehicles;
  const setSold = (ticketId: number, count: number) =>
    set({
      sell_tickets: check.sell_tickets.some((s) => s.ticket_id === ticketId)
        ? check.sell_tickets.map((s) => (s.ticket_id === ticketId ? { ...s, count } : s))
        : [...check.sell_tickets, { ticket_id: ticketId, count }],
    });

  return (
    <Stack spacing={1.5} data-testid="vehicle-editor" data-index={index}>
      <Paper variant="outlined" sx={{ p: 1.5 }}>
        <Stack spacing={1.5}>
          <TextField
            select
            size="small"
            label={t('mobile.bc.routeNumber')}
            value={check.route_short_name}
            onChange={(e) => set({ route_short_name: e.target.value })}
            data-testid="check-route"
          >
            {[...new Set([...loaded.routes.map((r) => r.short_name), ...(check.route_short_name ? [check.route_short_name] : [])])].map(
              (name) => (
                <MenuItem key={name} value={name}>
                  {name}
                </MenuItem>
              ),
            )}
          </TextField>
          <TextField
            select
            size="small"
            label={t('mobile.bc.depotNumber')}
            value={check.depot_number ?? ''}
            onChange={(e) => set({ depot_number: toOptionalNumber(e.target.value) })}
            data-testid="check-depot"
          >
            <MenuItem value="">—</MenuItem>
            {[...new Set([...vehicles.map((v) => v.depot_number), ...(check.depot_number !== null ? [check.depot_number] : [])])].map(
              (n) => (
                <MenuItem key={n} value={n}>
                  {n}
                </MenuItem>
              ),
            )}
          </TextField>
          <TextField
            size="small"
            label={t('mobile.bc.tableNumber')}
            value={check.table_number ?? ''}
            onChange={(e) => set({ table_number: toOptionalNumber(e.target.value) })}
            slotProps={{ htmlInput: { inputMode: 'numeric', pattern: '[0-9]*', 'data-testid': 'check-driver' } }}
          />
        </Stack>
      </Paper>
      <Paper variant="outlined" sx={{ p: 1.5 }}>
        <Typography variant="subtitle2" gutterBottom>
          {t('mobile.bc.ticketsSold')}
        </Typography>
        <Stack spacing={1.5}>
          {loaded.tickets.map((ticket) => {
            const cap = soldCap(body, index, ticket.id);
            return (
              <CountField
                key={ticket.id}
                label={ticket.name}
                value={soldOf(check, ticket.id)}
                cap={cap}
                capHint={t('mobile.bc.capHint', { cap })}
                onChange={(count) => setSold(ticket.id, count)}
                testId={`sold-${ticket.id}`}
              />
            );
          })}
        </Stack>
      </Paper>
      <Paper variant="outlined" sx={{ p: 1.5 }}>
        <Typography variant="subtitle2" gutterBottom>
          {t('mobile.bc.violation')}
        </Typography>
        <Stack spacing={1.5}>
          <CountField
            label={t('mobile.bc.kickout')}
            value={check.kickout}
            onChange={(kickout) => set({ kickout })}
            testId="check-kickout"
          />
          <CountField
            label={t('mobile.bc.ovd')}
            value={check.OVDdeliver}
            onChange={(OVDdeliver) => set({ OVDdeliver })}
            testId="check-ovd"
          />
        </Stack>
      </Paper>
      <Paper variant="outlined" sx={{ p: 1.5 }}>
        <Typography variant="subtitle2" gutterBottom>
          {t('mobile.bc.seized')}
        </Typography>
        <Stack spacing={1.5}>
          {SEIZED_CATEGORIES.map((category, k) => (
            <CountField
              key={category}
              label={t(`bc.seized.${category}`)}
              value={check.take_tickets[k].count}
              testId={`seized-${category}`}
              onChange={(count) => set({ take_tickets: check.take_tickets.map((x, i) => (i === k ? { ...x, count } : x)) })}
            />
          ))}
        </Stack>
      </Paper>
      <Paper variant="outlined" sx={{ p: 1.5 }}>
        <Typography variant="subtitle2" gutterBottom>
          {t('mobile.bc.report')}
        </Typography>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
          <CountField
            label={t('mobile.bc.report')}
            value={check.driver_raport}
            onChange={(driver_raport) => set({ driver_raport })}
            testId="check-raport"
          />
          <Button
            variant="outlined"
            startIcon={<PhotoCameraIcon />}
            onClick={() => camera.current?.click()}
            sx={{ flexShrink: 0, height: 40 }}
          >
            {t('mobile.bc.photo')}
          </Button>
          <input
            ref={camera}
            type="file"
            accept="image/*"
            capture="environment"
            hidden
            data-testid="photo-input"
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) onPhoto(file);
              e.target.value = '';
            }}
          />
        </Stack>
        <Typography variant="caption" color="text.secondary" data-testid="photo-count">
          {t('mobile.bc.photos', { count: photos })}
        </Typography>
      </Paper>
    </Stack>
  );
}
