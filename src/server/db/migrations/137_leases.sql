-- Leases of the singleton jobs (src/server/jobs/leases.ts, docs/deployment.md): with several server processes
-- on one database, a job that must run once (the simulator, the video archive worker, rollouts, the periodic
-- sweeps) runs only in the process holding its lease. The holder renews it every few seconds; once it has not
-- for `expires_at`, another process takes it and the generation goes up, so a pass of an older holder can be
-- told from the new one's.
create table app.lease (
  name text primary key,
  holder text not null,
  generation bigint not null default 1,
  acquired_at timestamptz not null default now(),
  expires_at timestamptz not null
);
