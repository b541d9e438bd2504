import { readdirSync, readFileSync } from "node:fs";

/**
 * CPU time (user + system, ms) used so far by every process in a process group, read from
 * /proc. Each benchmark server runs in its own group (bench/processes.ts), so this is the server's
 * own cost per request, whatever else the shared machine (Postgres, the load generator) is doing.
 * Undefined where /proc is not available (not Linux): the report then leaves the column empty.
 */
const TICKS_PER_SECOND = 100; // USER_HZ: 100 on every Linux architecture Node.js supports.

function statFields(pid: string): string[] | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) is in parentheses and may contain spaces: split after it.
    return text.slice(text.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined; // the process exited between listing and reading
  }
}

export function processGroupCpuMs(groupId: number | undefined): number | undefined {
  if (groupId === undefined || process.platform !== "linux") return undefined;
  let ticks = 0;
  let found = false;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    // After the name: state(0) ppid(1) pgrp(2) ... utime(11) stime(12).
    const fields = statFields(entry);
    if (!fields || Number(fields[2]) !== groupId) continue;
    found = true;
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return found ? (ticks * 1000) / TICKS_PER_SECOND : undefined;
}
