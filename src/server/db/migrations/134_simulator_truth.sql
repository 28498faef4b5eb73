-- The simulator's ground truth (src/server/simulator/, docs/simulator.md "Ground truth"): each run a simulated
-- vehicle really worked, recorded when it ends, with the time it really came to and left each stop. Written only
-- by the simulator and read only by the benchmarks (scripts/bench/dispatch.ts); the live timetable never reads it.
-- Arrays by the run's stops in order (those with coordinates): stop ids, their order numbers in the schedule,
-- arrivals (the first: when the vehicle came to the terminus) and departures (the last: null, the run ends on
-- arrival). The simulator keeps seven days.
create schema if not exists simulator;

create table simulator.truth_run (
  service_date date not null,
  vehicle_id int not null,
  route_id int not null,
  direction smallint not null,
  rasp_variant_id int not null,
  graph int not null,
  smena text not null,
  race_num int not null,
  stop_ids int[] not null,
  stop_sequences int[] not null,
  arrivals timestamptz[] not null,
  departures timestamptz[] not null,
  primary key (service_date, rasp_variant_id, graph, smena, race_num, vehicle_id)
);
