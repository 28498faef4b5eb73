import { Badge, Chip, Stack } from '@mui/material';
import type { BoardList, ExceptionKind } from '../../shared/dispatch/api';
import { useT } from '../../web/i18n/translate';

/** The counters by kind at the top of the board; a click filters the list by the kind (again: all kinds). */
export function BoardCounters({
  counters,
  kinds,
  onKinds,
}: {
  counters: BoardList['counters'];
  kinds: readonly string[];
  onKinds: (kinds: ExceptionKind[]) => void;
}) {
  const t = useT();
  return (
    <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, my: 1 }} data-testid="board-counters">
      {counters.map((c) => {
        const on = kinds.includes(c.kind);
        return (
          <Badge key={c.kind} color="error" badgeContent={c.open} invisible={!c.open} max={999}>
            <Chip
              label={`${t(`dispatch.kinds.${c.kind}`)}: ${c.count}`}
              color={on ? 'primary' : c.count ? 'default' : undefined}
              variant={on ? 'filled' : 'outlined'}
              onClick={() => onKinds(on ? (kinds.filter((k) => k !== c.kind) as ExceptionKind[]) : ([...kinds, c.kind] as ExceptionKind[]))}
              data-testid={`board-counter-${c.kind}`}
              data-count={c.count}
              data-open={c.open}
            />
          </Badge>
        );
      })}
    </Stack>
  );
}
