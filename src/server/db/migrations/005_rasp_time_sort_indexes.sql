-- The schedule-times list (millions of rows) sorted by time, exit or race number: without an index each
-- page sorts the whole table (scripts/bench/tableList.ts: ~200 ms on 1M rows). The id tie-breaker the list
-- always adds is part of each index so a page is an index range. Other columns of the table sort fast
-- enough on the existing indexes or are rarely sorted; every index added here slows the bulk import a little.
create index rasp_time_time_sort_idx on mgt.rasp_time (time, id);
create index rasp_time_graph_sort_idx on mgt.rasp_time (graph, id);
create index rasp_time_racenum_sort_idx on mgt.rasp_time (racenum, id);
