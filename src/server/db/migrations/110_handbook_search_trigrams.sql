-- Free-text search of the schedule times (lists' `q`, a column's text filter: lower(column) like lower(pattern),
-- src/server/handbooks/filters.ts) answered by trigram indexes instead of a scan of every row: a 200-character
-- search over a city's 150,000 times held the embedded engine for seconds, and every other user behind it.
-- pg_trgm is a trusted extension (a database owner may create it); the embedded engine ships it.
-- The other handbooks with text search hold thousands of rows at most: a scan of them stays short.
create extension if not exists pg_trgm;
create index rasp_time_smena_trgm_idx on mgt.rasp_time using gin (lower(smena) gin_trgm_ops);
create index rasp_time_racetype_trgm_idx on mgt.rasp_time using gin (lower(racetype) gin_trgm_ops);
