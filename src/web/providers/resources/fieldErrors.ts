import { HttpError } from '../httpClient';

/** A server message code and the form field it is about. */
export type FieldCodes = Readonly<Record<string, string>>;

/**
 * A refused save (400) whose codes name fields becomes an error react-admin's form reads: the same
 * HttpError with `body.errors` ({ field: 'errors.<code>' }), which the form shows under each field
 * (translated by the i18n provider). The message stack shows the codes too (the http client's 400 rule).
 */
export function withFieldErrors(error: unknown, fields: FieldCodes): unknown {
  if (!(error instanceof HttpError) || error.status !== 400) return error;
  const errors: Record<string, string> = {};
  for (const code of error.messages) {
    const field = fields[code];
    if (field && !errors[field]) errors[field] = `errors.${code}`;
  }
  if (Object.keys(errors).length === 0) return error;
  const body = typeof error.body === 'object' && error.body !== null ? error.body : {};
  return new HttpError(error.status, error.messages, { ...body, errors }, { cause: error });
}

/** Runs a save and turns field codes of a refusal into form errors. */
export async function savingFields<T>(fields: FieldCodes, save: () => Promise<T>): Promise<T> {
  try {
    return await save();
  } catch (error) {
    throw withFieldErrors(error, fields);
  }
}
