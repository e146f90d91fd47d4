import { readFileSync } from 'node:fs';

/** Resident set size of a process in MB (VmRSS from /proc, Linux); null where it cannot be read. */
export function processRssMb(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}
