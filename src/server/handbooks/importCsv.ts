import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ImportResponse } from '../../shared/handbooks/api';
import type { HandbookSchema } from '../../shared/handbooks/types';
import { ApiError } from '../http/errors';
import { translateDbError } from './dbErrors';
import { FieldsError, ImportFailedError } from './errorReplies';
import { csvBatches } from './csvStream';
import { declaredCharset } from './textDecoding';
import { applyStage } from './importApply';
import { DirectInsert } from './importDirect';
import { ErrorList, IMPORT_ERRORS_MAX, readRecords } from './importRead';
import { ImportStage } from './importStage';
import { stagedRefErrors } from './refChecks';
import { tableSql } from './sqlNames';

export { ErrorList, IMPORT_ERRORS_MAX };

/** Imports of at least this many rows refresh the table's statistics. */
const ANALYZE_AFTER_ROWS = 10_000;

/**
 * POST /api/table/import: a semicolon-separated file with the handbook's headers, streamed chunk by chunk.
 * Every row is validated by the same rules as a save (validation.ts), links are checked, and any error
 * leaves the handbook untouched and lists the first errors by file line (header = 1). Clean files are
 * applied by the schema's import mode in one transaction with one journal entry:
 * - insert and replace on PostgreSQL: straight into the handbook within that transaction (importDirect.ts);
 * - otherwise: into a staging table while reading (no lock held during the upload), checked set-based,
 *   then moved across by the mode's statements (importApply.ts).
 */
export async function importCsv(
  app: FastifyInstance,
  request: FastifyRequest,
  schema: HandbookSchema,
  source: Readable,
): Promise<ImportResponse> {
  const errors = new ErrorList();
  const batches = csvBatches(source, declaredCharset(request.headers['content-type']));
  const started = performance.now();
  const phases: Record<string, number> = {};
  const mark = (phase: string) => {
    phases[phase] = Math.round(performance.now() - started);
  };
  let stage: ImportStage | undefined;
  try {
    let result: ImportResponse;
    const direct = app.db.engine === 'postgres' && (schema.import.mode === 'insert' || schema.import.mode === 'replace');
    if (direct) {
      result = await app.db.transaction(async (tx) => {
        let sink: DirectInsert | undefined;
        const { rows } = await readRecords(schema, batches, errors, async (plan) => {
          sink = new DirectInsert(
            tx,
            schema,
            plan.slots.map((slot) => slot.column),
            errors,
          );
          return sink;
        });
        mark('read+apply');
        const counts = { inserted: sink!.inserted, updated: 0, deleted: sink!.deleted };
        await app.journal.record(request, { action: 'handbook.import', object: schema.type, after: { rows, ...counts } }, tx);
        return { rows, ...counts };
      });
    } else {
      const { rows } = await readRecords(schema, batches, errors, async (plan) => {
        stage = await ImportStage.create(
          app.db,
          plan.slots.map((slot) => slot.column),
        );
        return stage;
      });
      mark('read');
      const activeStage = stage!;
      await stagedRefErrors(app.db, activeStage, errors, IMPORT_ERRORS_MAX + 1);
      if (!errors.empty) throw errors.fail();
      mark('links');
      result = await app.db.transaction(async (tx) => {
        const counts = await applyStage(tx, schema, activeStage);
        await app.journal.record(request, { action: 'handbook.import', object: schema.type, after: { rows, ...counts } }, tx);
        return { rows, ...counts };
      });
      mark('apply');
    }
    // Fresh planner statistics after a big change: list counts and plans (and PGlite, which has no
    // autovacuum) see the new size at once.
    if (result.rows >= ANALYZE_AFTER_ROWS) await app.db.query(`analyze ${tableSql(schema)}`).catch(() => undefined);
    mark('analyze');
    // Elapsed milliseconds at the end of each phase, for operators sizing imports.
    request.log.info({ handbook: schema.type, ...result, ms: phases }, 'handbook import');
    return result;
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw asImportFailure(error, schema);
  } finally {
    // Stop reading an upload we refuse, and leave no staging table behind.
    await batches.return(undefined);
    if (stage) await stage.drop().catch((error: unknown) => request.log.warn({ err: error }, 'staging table not dropped'));
  }
}

/**
 * A constraint the database refused while applying a clean file (a duplicate key against rows already in
 * the table, say): reported like row errors, without a row number (0) since the statement was set-based.
 */
export function asImportFailure(error: unknown, schema: HandbookSchema): ImportFailedError {
  try {
    translateDbError(error, schema);
  } catch (translated) {
    if (translated instanceof FieldsError) {
      const detail = (error as { detail?: string }).detail ?? '';
      const values = /=\((.*)\)/.exec(detail)?.[1];
      const entries = Object.entries(translated.errors);
      const list = entries.length
        ? entries.map(([column, message]) => ({ row: 0, column, message: values ? `${message}: ${values}` : message }))
        : [{ row: 0, column: '', message: translated.messages.join(', ') }];
      return new ImportFailedError(list, 0);
    }
    throw translated;
  }
  throw error;
}
