-- When the live timetable watched the fleet (src/server/dispatch/watchSpans.ts): the writer process keeps a span
-- from its start, its end moved on every minute. A run without passages whose judgement (its planned end plus
-- the settings' «run missed» time) fell outside every span was not watched, not missed: before the first start,
-- while the server was down, or with the module off. «План и факт» and «Выполнение рейсов» show it apart.
create table dispatch.watch_span (
  id bigserial primary key,
  started_at timestamptz not null,
  ended_at timestamptz not null
);
create index watch_span_ended_at_idx on dispatch.watch_span (ended_at);

-- A span's end lags its process by at most a minute (it is moved on every minute): two minutes of slack.
create function dispatch.watched(p_at timestamptz) returns boolean language sql stable as $$
  select exists (select 1 from dispatch.watch_span where ended_at >= p_at - interval '2 minutes' and started_at <= p_at)
$$;

-- dispatch.run_status (migration 133) with the runs not watched apart; the spans are read only for a run without
-- passages past its judgement.
create or replace function dispatch.run_status(p_ended boolean, p_passed int, p_on_run boolean, p_planned_end timestamptz, p_now timestamptz, p_missed_seconds int)
returns text language sql stable as $$
  select case when p_ended then 'performed'
              when p_on_run or p_now <= p_planned_end + make_interval(secs => p_missed_seconds)
                then case when p_passed > 0 or p_on_run then 'in_progress' else 'planned' end
              when p_passed > 0 then 'partial'
              when dispatch.watched(p_planned_end + make_interval(secs => p_missed_seconds)) then 'not_performed'
              else 'not_watched' end
$$;
