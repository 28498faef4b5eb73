import { useState } from 'react';
import {
  Box,
  Button,
  Chip,
  IconButton,
  MenuItem,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import DeleteIcon from '@mui/icons-material/Delete';
import { Title } from 'react-admin';
import { useSearchParams } from 'react-router';
import {
  DELIVERY_STATES,
  DISPATCH_MESSAGES_PATH,
  MESSAGE_MAX,
  TTL_DEFAULT_MINUTES,
  type DeliveryState,
  type DriverMessage,
  type TargetKind,
} from '../../shared/dispatch/control';
import { formatClock } from '../../shared/format';
import { useRights } from '../../web/components/useRights';
import { useT } from '../../web/i18n/translate';
import { useAddCanned, useCanned, useDeleteCanned, useInbox, useMessages, useSendMessage } from './controlApi';
import { useOptions } from '../../web/dispatch/dispatchApi';
import { idsFrom } from '../../web/dispatch/dispatchFormat';
import { DispatchError } from '../../web/dispatch/DispatchError';
import { DispatchIdSelect } from './DispatchIdSelect';

const STATE_COLOR: Record<DeliveryState, 'default' | 'info' | 'primary' | 'success' | 'error'> = {
  queued: 'default',
  sent: 'info',
  delivered: 'primary',
  read: 'success',
  expired: 'error',
};
const clock = (value: string | null) => (value ? formatClock(value, { seconds: false }) : '');

/** The form of a new message: to whom, the text (a canned one or typed), how long it may take to arrive. */
function Compose({ initialVehicle }: { initialVehicle: number | null }) {
  const t = useT();
  const options = useOptions();
  const canned = useCanned();
  const send = useSendMessage();
  const [target, setTarget] = useState<TargetKind>(initialVehicle ? 'vehicle' : 'route');
  const [targetId, setTargetId] = useState<number | null>(initialVehicle);
  const [text, setText] = useState('');
  const [ttl, setTtl] = useState(String(TTL_DEFAULT_MINUTES));
  const [graph, setGraph] = useState('1');
  const choices =
    target === 'vehicle'
      ? options.data?.vehicles
      : target === 'route' || target === 'exit'
        ? options.data?.routes
        : target === 'depot'
          ? options.data?.depots
          : [];
  const submit = () =>
    send.mutate(
      {
        text,
        target,
        ...(target === 'all' || targetId === null ? {} : { targetId }),
        ...(target === 'exit' ? { graph: Number(graph) } : {}),
        ttlMinutes: Number(ttl),
      },
      { onSuccess: () => setText('') },
    );
  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 2 }} data-testid="message-compose">
      <Typography variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
        {t('dispatch.control.compose')}
      </Typography>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} useFlexGap sx={{ alignItems: { md: 'center' }, flexWrap: 'wrap' }}>
        <TextField
          select
          size="small"
          label={t('dispatch.control.target')}
          value={target}
          sx={{ minWidth: 180 }}
          onChange={(e) => {
            setTarget(e.target.value as TargetKind);
            setTargetId(null);
          }}
          slotProps={{ htmlInput: { 'data-testid': 'message-target' } }}
        >
          {(['vehicle', 'exit', 'route', 'depot', 'all'] as const).map((k) => (
            <MenuItem key={k} value={k}>
              {t(`dispatch.control.targets.${k}`)}
            </MenuItem>
          ))}
        </TextField>
        {target !== 'all' && (
          <DispatchIdSelect
            label={t(`dispatch.control.recipient.${target}`)}
            options={choices ?? []}
            value={targetId ? [targetId] : []}
            onChange={(ids) => setTargetId(ids[0] ?? null)}
            testId="message-target-id"
            multiple={false}
          />
        )}
        {target === 'exit' && (
          <TextField
            size="small"
            type="number"
            label={t('dispatch.control.graph')}
            value={graph}
            sx={{ width: 140 }}
            onChange={(e) => setGraph(e.target.value)}
            slotProps={{ htmlInput: { min: 1, 'data-testid': 'message-graph' } }}
          />
        )}
        <TextField
          select
          size="small"
          label={t('dispatch.control.canned')}
          value=""
          sx={{ minWidth: 220 }}
          onChange={(e) => setText(e.target.value)}
          slotProps={{ htmlInput: { 'data-testid': 'message-canned' } }}
        >
          {(canned.data?.list ?? []).map((c) => (
            <MenuItem key={c.id} value={c.text}>
              {c.text}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          size="small"
          type="number"
          label={t('dispatch.control.ttl')}
          value={ttl}
          onChange={(e) => setTtl(e.target.value)}
          sx={{ width: 180, flexShrink: 0 }}
          slotProps={{ htmlInput: { min: 1, step: 1, 'data-testid': 'message-ttl' } }}
        />
      </Stack>
      <Stack direction="row" spacing={2} sx={{ mt: 2, alignItems: 'flex-start' }}>
        <TextField
          fullWidth
          multiline
          minRows={2}
          label={t('dispatch.control.text')}
          value={text}
          onChange={(e) => setText(e.target.value)}
          slotProps={{ htmlInput: { maxLength: MESSAGE_MAX, 'data-testid': 'message-text' } }}
        />
        <Button variant="contained" onClick={submit} disabled={send.isPending} data-testid="message-send">
          {t('dispatch.control.send')}
        </Button>
      </Stack>
      <DispatchError error={send.error ?? options.error} />
    </Paper>
  );
}

/** One sent message: its text, to whom, and its state on each vehicle. */
function SentRow({ m }: { m: DriverMessage }) {
  const t = useT();
  return (
    <TableRow data-testid="message-row" data-message-id={m.id}>
      <TableCell>{clock(m.createdAt)}</TableCell>
      <TableCell>
        {t(`dispatch.control.targets.${m.target}`)}
        {m.targetName ? `: ${m.targetName}` : ''}
      </TableCell>
      <TableCell>{m.text}</TableCell>
      <TableCell>{m.author ?? ''}</TableCell>
      <TableCell>
        <Stack direction="row" spacing={0.5} sx={{ flexWrap: 'wrap', rowGap: 0.5 }}>
          {m.deliveries.length <= 6
            ? m.deliveries.map((d) => (
                <Tooltip
                  key={d.vehicleId}
                  title={[
                    d.sentAt && `${t('dispatch.control.states.sent')} ${clock(d.sentAt)}`,
                    d.deliveredAt && `${t('dispatch.control.states.delivered')} ${clock(d.deliveredAt)}`,
                    d.readAt && `${t('dispatch.control.states.read')} ${clock(d.readAt)}`,
                  ]
                    .filter(Boolean)
                    .join(', ')}
                >
                  <Chip
                    size="small"
                    color={STATE_COLOR[d.state]}
                    label={`${d.depotNumber ?? d.vehicleId}: ${t(`dispatch.control.states.${d.state}`)}`}
                    data-testid="message-delivery"
                    data-state={d.state}
                  />
                </Tooltip>
              ))
            : DELIVERY_STATES.filter((s) => m.counts[s]).map((s) => (
                <Chip key={s} size="small" color={STATE_COLOR[s]} label={`${t(`dispatch.control.states.${s}`)}: ${m.counts[s]}`} />
              ))}
        </Stack>
      </TableCell>
    </TableRow>
  );
}

/** The canned texts: a short list, added to and pruned by those who send (code 47). */
function CannedTexts({ mayEdit }: { mayEdit: boolean }) {
  const t = useT();
  const canned = useCanned();
  const add = useAddCanned();
  const remove = useDeleteCanned();
  const [text, setText] = useState('');
  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid="canned-texts">
      <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
        {t('dispatch.control.cannedTitle')}
      </Typography>
      {(canned.data?.list ?? []).map((c) => (
        <Stack key={c.id} direction="row" sx={{ alignItems: 'center' }}>
          <Typography variant="body2" sx={{ flex: 1 }}>
            {c.text}
          </Typography>
          {mayEdit && (
            <IconButton size="small" aria-label={t('dispatch.control.deleteCanned')} onClick={() => remove.mutate(c.id)}>
              <DeleteIcon fontSize="small" />
            </IconButton>
          )}
        </Stack>
      ))}
      {mayEdit && (
        <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
          <TextField
            size="small"
            fullWidth
            label={t('dispatch.control.newCanned')}
            value={text}
            onChange={(e) => setText(e.target.value)}
            slotProps={{ htmlInput: { maxLength: MESSAGE_MAX } }}
          />
          <Button onClick={() => add.mutate(text, { onSuccess: () => setText('') })} disabled={add.isPending}>
            {t('dispatch.control.addCanned')}
          </Button>
        </Stack>
      )}
      <DispatchError error={canned.error ?? add.error ?? remove.error} />
    </Paper>
  );
}

/**
 * /dispatch/messages «Сообщения водителям» (code 44 reads, code 47 sends): a new message to a vehicle (?vehicle=),
 * a route's, a depot's or all vehicles on the line; the day's messages with each vehicle's state moving live
 * (queued, sent, delivered, read, expired); the drivers' messages; the canned texts.
 */
export default function MessagesScreen() {
  const t = useT();
  const rights = useRights(DISPATCH_MESSAGES_PATH);
  const [params] = useSearchParams();
  const vehicle = idsFrom(params.get('vehicle'))[0] ?? null;
  const messages = useMessages();
  const inbox = useInbox();
  return (
    <Box sx={{ p: 2 }} data-testid="dispatch-messages">
      <Title title={t('menu.dispatch.messages')} />
      {rights.create && <Compose initialVehicle={vehicle} />}
      <Stack direction={{ xs: 'column', lg: 'row' }} spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Box sx={{ flex: 1, minWidth: 0, width: '100%' }}>
          <Typography variant="h6">{t('dispatch.control.sentList')}</Typography>
          <DispatchError error={messages.error} />
          <Paper variant="outlined" sx={{ overflowX: 'auto' }}>
            {messages.data?.list.length === 0 && (
              <Typography sx={{ p: 2 }} color="text.secondary">
                {t('dispatch.control.noMessages')}
              </Typography>
            )}
            {messages.data && messages.data.list.length > 0 && (
              <Table size="small" data-testid="messages-table">
                <TableHead>
                  <TableRow>
                    <TableCell>{t('dispatch.control.columns.time')}</TableCell>
                    <TableCell>{t('dispatch.control.target')}</TableCell>
                    <TableCell>{t('dispatch.control.text')}</TableCell>
                    <TableCell>{t('dispatch.control.columns.author')}</TableCell>
                    <TableCell>{t('dispatch.control.columns.state')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {messages.data.list.map((m) => (
                    <SentRow key={m.id} m={m} />
                  ))}
                </TableBody>
              </Table>
            )}
          </Paper>
        </Box>
        <Stack spacing={2} sx={{ width: { xs: '100%', lg: 380 }, flexShrink: 0 }}>
          <Paper variant="outlined" sx={{ p: 2 }} data-testid="driver-inbox">
            <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
              {t('dispatch.control.inbox')}
            </Typography>
            <DispatchError error={inbox.error} />
            {inbox.data?.list.length === 0 && (
              <Typography variant="body2" color="text.secondary">
                {t('dispatch.control.noInbox')}
              </Typography>
            )}
            {inbox.data?.list.map((m) => (
              <Typography key={m.id} variant="body2" sx={{ py: 0.25 }}>
                <b>{clock(m.receivedAt)}</b> · {m.depotNumber ?? m.vehicleId}
                {m.routeName ? ` (${m.routeName})` : ''}: {m.text}
              </Typography>
            ))}
          </Paper>
          <CannedTexts mayEdit={rights.create} />
        </Stack>
      </Stack>
    </Box>
  );
}
