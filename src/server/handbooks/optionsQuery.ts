import type { OptionsRequest, OptionsResponse } from '../../shared/handbooks/api';
import { HANDBOOKS } from '../../../schemas/index';
import { SUGGESTIONS_MAX } from '../../shared/constants';
import type { ChoicesFrom, HandbookSchema } from '../../shared/handbooks/types';
import type { Queryable } from '../db/types';
import { fail } from '../http/errors';
import { containsCondition, containsPattern } from './filters';
import { refLabelExpr } from './refLabel';
import { Params, quoteIdent, requireColumn, sqlTypeOf, tableSql } from './sqlNames';
import type { Column } from '../../shared/handbooks/fields';
import { MSG } from '../../shared/handbooks/messages';
import { columnRule } from '../../shared/handbooks/validation';

/**
 * POST /api/table/options: choices for a link input (suggestion list, at most 50, spec section 9). The
 * options are rows of the link's target, read under the rights of the handbook being edited, so a form
 * can offer territorial departments even while that handbook's own screen is switched off.
 */
export async function refOptions(db: Queryable, schema: HandbookSchema, input: Omit<OptionsRequest, 'config'>): Promise<OptionsResponse> {
  const column = requireColumn(schema, input.field);
  if (column.field.choicesFrom) return suggestedValues(db, column.field.choicesFrom, input);
  if (column.field.kind !== 'ref') throw fail(400, 'bad_request', `${input.field} is not a link`);
  const field = column.field;
  const target = HANDBOOKS[field.target];
  const label = refLabelExpr(field, 'r');
  const order = refLabelExpr(field, 'r', 'sort');
  const value = `r.${quoteIdent(field.valueField)}`;
  const params = new Params();
  const conditions = [`${value} is not null`];
  if (input.q?.trim()) conditions.push(containsCondition(label, params.add(containsPattern(input.q.trim()))));
  if (input.values?.length)
    conditions.push(`${value} = any(${params.add(input.values.map((raw) => typedValue(column, raw, 'values')))}::${sqlTypeOf(column)}[])`);
  const limit = limitOf(input.limit);
  const list = await db.query<{ value: number | string; label: string }>(
    `select ${value} as value, min(coalesce(${label}, ${value}::text)) as label from ${tableSql(target)} r
      where ${conditions.join(' and ')} group by ${value} order by min(coalesce(${order}, ${value}::text)), 1 limit ${params.add(limit)}`,
    params.values,
  );
  return { list };
}

/** A value the column can hold, by its own rule; 400 naming where it came from otherwise. */
function typedValue(column: Column, raw: unknown, where: string): unknown {
  const rule = columnRule(column);
  const typed = rule.normalize(raw);
  const message = typed === null ? MSG.required : rule.check(typed);
  if (message) throw fail(400, 'bad_request', `${where}: ${message}`);
  return typed;
}

const limitOf = (limit: unknown): number =>
  Math.min(Math.max(Math.trunc(Number(limit ?? SUGGESTIONS_MAX)) || SUGGESTIONS_MAX, 1), SUGGESTIONS_MAX);

/**
 * Suggested values of a field with choicesFrom: the distinct values of the source column in the rows that
 * match the record (exits and shifts of a schedule variant's times). Nothing until every match value is set.
 */
async function suggestedValues(db: Queryable, from: ChoicesFrom, input: Omit<OptionsRequest, 'config'>): Promise<OptionsResponse> {
  const source = HANDBOOKS[from.handbook];
  const value = `r.${quoteIdent(requireColumn(source, from.column).name)}`;
  const params = new Params();
  const conditions = [`${value} is not null`];
  for (const [target, own] of Object.entries(from.match)) {
    const matched = input.match?.[own];
    if (matched === undefined || matched === null || matched === '') return { list: [] };
    const targetColumn = requireColumn(source, target);
    conditions.push(
      `r.${quoteIdent(targetColumn.name)} = ${params.add(typedValue(targetColumn, matched, `match.${own}`))}::${sqlTypeOf(targetColumn)}`,
    );
  }
  if (input.q?.trim()) conditions.push(containsCondition(`${value}::text`, params.add(containsPattern(input.q.trim()))));
  const list = await db.query<{ value: number | string; label: string }>(
    `select distinct ${value} as value, ${value}::text as label from ${tableSql(source)} r
      where ${conditions.join(' and ')} order by 1 limit ${params.add(limitOf(input.limit))}`,
    params.values,
  );
  return { list };
}
