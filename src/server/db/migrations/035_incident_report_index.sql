-- The incident reports count incidents of a period by time and type: with the type inside the time index the
-- count reads the index alone (an index-only scan) instead of visiting every incident's row.
drop index adas.incident_event_tm_idx;
create index incident_event_tm_idx on adas.incident_event (tm desc) include (incident_type);
