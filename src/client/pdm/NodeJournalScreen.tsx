import { Box, Tooltip, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { formatDateTime } from '../../shared/format';
import { STATE_COLOURS, type NodeState } from '../../shared/pdm/model';
import { PDM_NODE_JOURNAL } from '../../shared/reports/pdm';
import { ReportPage } from '../reports/ReportScreen';
import { fetchTimeline, type TimelineNode } from './pdmApi';
import { useBuiltFilters, useFilteredLoad } from './useReportFilters';

/** One node's states across the period as coloured spans (grey before its first reading: no data). */
function TimelineRow({ node, from, to }: { node: TimelineNode; from: number; to: number }) {
  const translate = useTranslate();
  const span = Math.max(1, to - from);
  return (
    <Box
      sx={{ display: 'grid', gridTemplateColumns: '280px 1fr', alignItems: 'center', gap: 1, mb: 0.5 }}
      data-testid="pdm-timeline-node"
      data-node-id={node.node_id}
    >
      <Typography variant="caption" noWrap title={node.node_path}>
        {node.node_path}
      </Typography>
      <Box sx={{ position: 'relative', height: 14, bgcolor: STATE_COLOURS.no_data, borderRadius: '2px', overflow: 'hidden' }}>
        {node.segments.map((s, i) => {
          const a = Math.max(from, Date.parse(s.from));
          const b = Math.min(to, Date.parse(s.to));
          return (
            <Tooltip
              key={i}
              title={`${translate(`pdm.states.${s.state}`)}: ${formatDateTime(new Date(a))} — ${formatDateTime(new Date(b))}`}
            >
              <Box
                data-state={s.state}
                sx={{
                  position: 'absolute',
                  top: 0,
                  bottom: 0,
                  left: `${((a - from) / span) * 100}%`,
                  width: `${Math.max(0.2, ((b - a) / span) * 100)}%`,
                  bgcolor: STATE_COLOURS[s.state as NodeState],
                }}
              />
            </Tooltip>
          );
        })}
      </Box>
    </Box>
  );
}

/** The journal's special part: with one vehicle chosen, the state timeline of each of its sensors over the period. */
function StateTimeline() {
  const translate = useTranslate();
  const filters = useBuiltFilters(PDM_NODE_JOURNAL);
  const vehicles = filters?.vehicle as number[] | undefined;
  const one = vehicles?.length === 1 ? filters : undefined;
  const data = useFilteredLoad(['pdm', 'timeline'], one, (f, signal) =>
    fetchTimeline((f.vehicle as number[])[0], f.from as string, f.to as string, signal),
  );
  if (!filters) return null;
  if (!one)
    return (
      <Typography color="text.secondary" sx={{ my: 1 }}>
        {translate('pdm.timeline.pick')}
      </Typography>
    );
  if (!data) return null;
  const from = Date.parse(filters.from as string);
  const to = Math.min(Date.now(), Date.parse(filters.to as string));
  return (
    <Box sx={{ my: 2 }} data-testid="pdm-timeline">
      <Typography variant="subtitle1">{translate('pdm.timeline.title')}</Typography>
      <Box sx={{ display: 'flex', gap: 2, my: 1 }}>
        {(Object.keys(STATE_COLOURS) as NodeState[]).map((s) => (
          <Box key={s} sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
            <Box sx={{ width: 12, height: 12, bgcolor: STATE_COLOURS[s] }} />
            <Typography variant="caption">{translate(`pdm.states.${s}`)}</Typography>
          </Box>
        ))}
      </Box>
      {data.list.map((node) => (
        <TimelineRow key={node.node_id} node={node} from={from} to={to} />
      ))}
    </Box>
  );
}

/** /pdm/change-node-journal (code 39): the declared journal with the state timeline above it. */
export default function NodeJournalScreen() {
  return (
    <ReportPage report={PDM_NODE_JOURNAL}>
      <StateTimeline />
    </ReportPage>
  );
}
