import { useEffect, useState } from 'react';
import { Box, Button, MenuItem, TextField } from '@mui/material';
import { useTranslate } from 'react-admin';
import { CHANNEL_KINDS, NODE_KINDS, SENSOR_TYPES, type PdmNode } from '../../shared/pdm/model';

type Draft = Record<string, string>;
const NUMBERS = ['channel', 'scale', 'offset', 'normal_min', 'normal_max', 'fault_min', 'fault_max', 'silence_s'] as const;

const draftOf = (node: PdmNode): Draft => ({
  name: node.name,
  kind: node.kind,
  sensor_type: node.sensor_type ?? '',
  channel_kind: node.channel_kind ?? '',
  unit: node.unit ?? '',
  ...Object.fromEntries(NUMBERS.map((k) => [k, node[k] === null ? '' : String(node[k])])),
});

/** A number typed with a comma or a point; '' is none. */
const numberOf = (text: string): number | null => (text.trim() === '' ? null : Number(text.replace(',', '.')));

/** The selected node's properties: kind, what it measures, its channel, unit, scale, ranges and silence time-out. */
export function NodeForm({ node, onSave }: { node: PdmNode; onSave(changes: Partial<PdmNode>): void }) {
  const translate = useTranslate();
  const [draft, setDraft] = useState<Draft>(() => draftOf(node));
  useEffect(() => setDraft(draftOf(node)), [node]);
  const field = (name: string, label: string, more: object = {}) => (
    <TextField
      size="small"
      label={translate(`pdm.tree.${label}`)}
      value={draft[name]}
      onChange={(e) => setDraft({ ...draft, [name]: e.target.value })}
      slotProps={{ htmlInput: { 'data-testid': `pdm-node-${name}` } }}
      {...more}
    />
  );
  const select = (name: string, label: string, values: readonly string[], labels: string, empty = false) =>
    field(name, label, {
      select: true,
      children: [
        ...(empty
          ? [
              <MenuItem key="" value="">
                —
              </MenuItem>,
            ]
          : []),
        ...values.map((v) => (
          <MenuItem key={v} value={v}>
            {translate(`${labels}.${v}`)}
          </MenuItem>
        )),
      ],
    });
  const save = () => {
    const changes: Partial<PdmNode> = {
      name: draft.name,
      kind: draft.kind as PdmNode['kind'],
      sensor_type: (draft.sensor_type || null) as PdmNode['sensor_type'],
      channel_kind: (draft.channel_kind || null) as PdmNode['channel_kind'],
      unit: draft.unit || null,
    };
    for (const k of NUMBERS) {
      const value = numberOf(draft[k]);
      if (value !== null && Number.isNaN(value)) return;
      (changes as Record<string, number | null>)[k] = value;
    }
    changes.scale ??= 1;
    changes.offset ??= 0;
    changes.silence_s ??= 300;
    onSave(changes);
  };
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(2, minmax(0, 1fr))', gap: 1.5 }} data-testid="pdm-node-form">
      {field('name', 'name', { sx: { gridColumn: 'span 2' } })}
      {select('kind', 'kind', NODE_KINDS, 'pdm.kinds')}
      {select('sensor_type', 'sensorType', SENSOR_TYPES, 'pdm.sensorTypes', true)}
      {select('channel_kind', 'channelKind', CHANNEL_KINDS, 'pdm.channelKinds', true)}
      {field('channel', 'channel')}
      {field('unit', 'unit')}
      {field('silence_s', 'silence')}
      {field('scale', 'scale')}
      {field('offset', 'offset')}
      {field('normal_min', 'normalMin')}
      {field('normal_max', 'normalMax')}
      {field('fault_min', 'faultMin')}
      {field('fault_max', 'faultMax')}
      <Button variant="contained" onClick={save} sx={{ gridColumn: 'span 2', justifySelf: 'start' }} data-testid="pdm-node-save">
        {translate('pdm.tree.save')}
      </Button>
    </Box>
  );
}
