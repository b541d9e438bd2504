import type { TargetCheck } from "../targets";

/** Phases of `npm run bench`, each selectable with --only=<id>[,<id>]. */
export const PHASE_IDS = ["queries", "load", "scaling", "menu", "plans", "concurrency", "replay"] as const;
export type PhaseId = (typeof PHASE_IDS)[number];

export type PhaseTable = { title: string; header: string[]; rows: string[][] };

/** What a scaling phase reports: tables for the text/markdown report, its targets, and raw data for latest.json. */
export type PhaseReport = { id: PhaseId; title: string; description: string; tables: PhaseTable[]; targets: TargetCheck[]; data: unknown };

export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? Number.NaN) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

export const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(2) : "-");
export const ratio = (value: number) => (Number.isFinite(value) ? value.toFixed(2) : "-");
