-- The exceptions of the live timetable already told to the bell (src/server/dispatch/exceptionBell.ts,
-- docs/dispatch.md «The bell»). An occurrence (its key and since) is inserted once, in the transaction that writes
-- its notification: a restart that raises the same occurrence again, or a new writer taking over, finds it here
-- and does not ring again. Rows older than a few days are deleted by the writer.
create table dispatch.exception_notice (
  exception_key text not null,
  since timestamptz not null,
  kind text not null,
  noticed_at timestamptz not null default now(),
  primary key (exception_key, since)
);
create index exception_notice_noticed_at_idx on dispatch.exception_notice (noticed_at);
