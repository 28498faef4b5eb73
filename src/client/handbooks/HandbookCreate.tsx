import { Create, useNotify, useRedirect } from 'react-admin';
import type { HandbookSchema } from '../../shared/handbooks/types';
import { handbookResource } from '../../web/providers/resources/handbooks';
import { HandbookForm } from './HandbookForm';
import { hasTripStops } from './handbookForm';
import { handbookPath, handbookRecordPath } from './handbookPaths';
import { errorShownByClient } from '../../web/providers/httpClient';

/** /handbooks/table/:handbookType/create; a trip goes on to its page, where its stops are edited. */
export function HandbookCreate({ schema }: { schema: HandbookSchema }) {
  const notify = useNotify();
  const redirect = useRedirect();
  const onSuccess = (record: { id: string | number }) => {
    notify('handbookEditor.saved', { type: 'info' });
    redirect(hasTripStops(schema) ? handbookRecordPath(schema.type, record.id) : handbookPath(schema.type));
  };
  return (
    <Create
      resource={handbookResource(schema.type)}
      title={`${schema.title}: новая запись`}
      mutationOptions={{ onSuccess, onError: errorShownByClient }}
    >
      <HandbookForm schema={schema} creating />
    </Create>
  );
}
