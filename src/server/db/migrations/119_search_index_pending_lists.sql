-- The trigram indexes of the schedule times take each write at once instead of through GIN's pending list: the
-- embedded engine has no autovacuum to merge that list, and every search read all of it (0.7 s a search over a
-- city's schedule times instead of under a millisecond). Imports of schedule times write a little slower.
alter index mgt.rasp_time_smena_trgm_idx set (fastupdate = off);
alter index mgt.rasp_time_racetype_trgm_idx set (fastupdate = off);
-- What the list already holds is merged now.
select gin_clean_pending_list('mgt.rasp_time_smena_trgm_idx'::regclass);
select gin_clean_pending_list('mgt.rasp_time_racetype_trgm_idx'::regclass);
