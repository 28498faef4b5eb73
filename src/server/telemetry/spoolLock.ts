import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';

/**
 * Who holds a spool folder, in its `lock` file: the owner (the process whose TRACK_SPOOL_DIR it is) or an
 * adopter (a live sibling writing a dead owner's files to the database). A folder an adopter could not empty
 * (the database away) is left `released`: the next round, anywhere on the machine, takes it again.
 */
export interface SpoolHolder {
  pid: number;
  host: string;
  /** The process's start time (Linux clock ticks since boot): a pid reused by another process is not the holder. */
  started: number | null;
  role: 'owner' | 'adopter' | 'released';
  /** The database the folder's positions belong to: a folder of another installation is never adopted. */
  database: string | null;
  /** This holder among several in one process (tests run several apps in one). */
  token: string;
}

const LOCK = 'lock';

/** Fields 3 on of /proc/<pid>/stat (after the command's name); null where there is no /proc or no such process. */
function statOf(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** Start time of a process (field 22 of /proc/<pid>/stat); null where there is no /proc. */
export function processStarted(pid: number): number | null {
  const fields = statOf(pid);
  return fields ? Number(fields[19]) : null;
}

function processAlive(pid: number): boolean {
  if (pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The holder is a live process of this machine (the same pid started at the same time). */
export function holderAlive(holder: SpoolHolder): boolean {
  if (holder.role === 'released' || !processAlive(holder.pid)) return false;
  const fields = statOf(holder.pid);
  if (!fields) return true;
  // A killed process its parent has not reaped yet (a zombie) still answers kill(pid, 0).
  if (fields[0] === 'Z' || fields[0] === 'X') return false;
  return holder.started === null || Number(fields[19]) === holder.started;
}

export function newHolder(role: SpoolHolder['role'], database: string | null): SpoolHolder {
  return { pid: process.pid, host: hostname(), started: processStarted(process.pid), role, database, token: randomUUID() };
}

/** The folder's holder; a lock of an older release (just the pid) reads as an owner of unknown database. */
export async function readHolder(dir: string): Promise<SpoolHolder | null> {
  const text = (await readFile(join(dir, LOCK), 'utf8').catch(() => '')).trim();
  if (!text) return null;
  if (/^\d+$/.test(text)) return { pid: Number(text), host: hostname(), started: null, role: 'owner', database: null, token: '' };
  try {
    const holder = JSON.parse(text) as SpoolHolder;
    return typeof holder.pid === 'number' ? holder : null;
  } catch {
    return null;
  }
}

/** Replaces the lock whole (written aside, then renamed over it): a reader never sees half of one. */
export async function writeHolder(dir: string, holder: SpoolHolder): Promise<void> {
  const aside = join(dir, `${LOCK}.${process.pid}.${holder.token}`);
  await writeFile(aside, JSON.stringify(holder));
  await rename(aside, join(dir, LOCK));
}

export async function removeHolder(dir: string): Promise<void> {
  await unlink(join(dir, LOCK)).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
}

/**
 * Runs a decision about a lock (read it, judge its holder, write ours) alone: `guard` holds an advisory lock
 * in PostgreSQL for it, so two live processes never take one folder; without it, alone within this process.
 */
export type SpoolGuard = <T>(work: () => Promise<T>) => Promise<T>;

let local: Promise<unknown> = Promise.resolve();
export const localGuard: SpoolGuard = <T>(work: () => Promise<T>): Promise<T> => {
  const next = local.then(work);
  local = next.catch(() => undefined);
  return next;
};
