import { Box } from '@mui/material';
import { Edit, useNotify, useRedirect } from 'react-admin';
import type { HandbookSchema } from '../../shared/handbooks/types';
import { handbookResource } from '../../web/providers/resources/handbooks';
import { HandbookForm } from './HandbookForm';
import { hasTripStops } from './handbookForm';
import { handbookPath } from './handbookPaths';
import { TripStopsEditor } from './widgets/TripStopsEditor';
import { errorShownByClient } from '../../web/providers/httpClient';

/** A key from the address: digits are numbers (most keys), anything else stays text. */
const keyOf = (id: string): string | number => (/^\d+$/.test(id) ? Number(id) : id);

/** /handbooks/table/:handbookType/:id; a save waits for the server's answer (its checks are the last word). */
export function HandbookEdit({ schema, id }: { schema: HandbookSchema; id: string }) {
  const notify = useNotify();
  const redirect = useRedirect();
  const key = keyOf(id);
  const onSuccess = () => {
    notify('handbookEditor.saved', { type: 'info' });
    redirect(handbookPath(schema.type));
  };
  return (
    <Box>
      <Edit
        resource={handbookResource(schema.type)}
        id={key}
        title={`${schema.title}: запись ${id}`}
        mutationMode="pessimistic"
        mutationOptions={{ onSuccess, onError: errorShownByClient }}
        queryOptions={{ onError: errorShownByClient }}
        redirect={handbookPath(schema.type)}
      >
        <HandbookForm schema={schema} creating={false} />
      </Edit>
      {hasTripStops(schema) && typeof key === 'number' && <TripStopsEditor tripId={key} />}
    </Box>
  );
}
