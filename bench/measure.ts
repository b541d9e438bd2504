import { Histogram } from "./histogram";
import { HttpClient, LOAD_LIMITS, runLoad, type LoadClient } from "./load";
import { processGroupCpuMs } from "./process-cpu";
import type { Scenario, ScenarioId } from "./scenarios";
import type { Subject, SubjectId } from "./subjects";

export type Profile = {
  name: "quick" | "full";
  concurrency: number;
  /** Per subject and scenario, before anything is measured. */
  warmupMs: number;
  /** Target duration of one measured round of the slowest subject. */
  roundMs: number;
  rounds: number;
};

/**
 * Many short rounds rather than a few long ones: this machine's speed drifts by 20% and more over
 * seconds (shared cores), so the subjects run back to back in rounds of ~400 ms, their order rotating,
 * and their throughput is summed over all rounds (bench/targets.ts). With rounds of seconds, the drift
 * lands between the subjects of a round and decides the comparison.
 */
export const PROFILES: Record<Profile["name"], Omit<Profile, "concurrency">> = {
  quick: { name: "quick", warmupMs: 500, roundMs: 300, rounds: 8 },
  full: { name: "full", warmupMs: 4_000, roundMs: 400, rounds: 36 },
};

/** At least this many requests per client in a round, so that the drain at its end stays a small part of it. */
const MIN_REQUESTS_PER_CLIENT = 8;

/** Progress lines for the rounds: every tenth, not one per subject and round. */
const PROGRESS_EVERY_ROUNDS = 10;

export type SubjectResult = {
  subject: SubjectId;
  label: string;
  requests: number;
  errors: number;
  errorSamples: string[];
  elapsedMs: number;
  throughput: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  maxMs: number;
  stoppedByTime: boolean;
  /** Throughput of each round, in round order: rounds of different subjects with one index ran back to back. */
  roundThroughputs: number[];
  /** The server's CPU time (all its processes) per measured request; null where it cannot be read. */
  cpuMsPerRequest: number | null;
};

export type ScenarioResult = { id: ScenarioId; title: string; description: string; requestsPerRound: number; subjects: SubjectResult[] };

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

type Prepared = { subject: Subject; http: HttpClient; clients: LoadClient[] };

/**
 * Measures one scenario on every subject: each gets its own clients (set up untimed), a warm-up,
 * then `rounds` rounds of the same request count, the subjects' order rotating every round so
 * that drift in a shared machine's load does not always favour the same one. The count is what
 * the slowest subject managed in `roundMs` during its warm-up.
 */
export async function measureScenario(scenario: Scenario, subjects: Subject[], profile: Profile, locationId: string, progress: (message: string) => void): Promise<ScenarioResult> {
  const prepared: Prepared[] = [];
  try {
    for (const subject of subjects) {
      const http = new HttpClient(subject.baseUrl, profile.concurrency);
      const entry: Prepared = { subject, http, clients: [] };
      // Listed before its setup runs, so that `finally` closes its connections even if setup fails.
      prepared.push(entry);
      entry.clients = await scenario.createClients({ subject, http, locationId }, profile.concurrency);
    }

    const warmupThroughput: number[] = [];
    for (const { subject, http, clients } of prepared) {
      const warm = await runLoad({ http, clients, maxRequests: LOAD_LIMITS.maxRequests, maxDurationMs: profile.warmupMs });
      if (warm.errors > 0) progress(`  warm-up ${subject.label}: ${warm.errors} errors, e.g. ${warm.errorSamples[0] ?? ""}`);
      warmupThroughput.push(warm.throughput);
    }
    const slowest = Math.min(...warmupThroughput);
    const requestsPerRound = Math.min(LOAD_LIMITS.maxRequests, Math.max(profile.concurrency * MIN_REQUESTS_PER_CLIENT, Math.floor((slowest * profile.roundMs) / 1000)));

    type Total = { requests: number; errors: number; errorSamples: string[]; elapsedMs: number; ok: number; histogram: Histogram; stoppedByTime: boolean; roundThroughputs: number[]; cpuMs: number | null };
    const totals = new Map<SubjectId, Total>();
    for (let round = 0; round < profile.rounds; round += 1) {
      const order = prepared.map((_, index) => prepared[(index + round) % prepared.length]).filter((entry): entry is Prepared => entry !== undefined);
      if (round % PROGRESS_EVERY_ROUNDS === 0) {
        progress(`  ${scenario.title}: rounds ${round + 1}-${Math.min(profile.rounds, round + PROGRESS_EVERY_ROUNDS)} of ${profile.rounds}, ${requestsPerRound} requests per subject each`);
      }
      for (const { subject, http, clients } of order) {
        const cpuBefore = processGroupCpuMs(subject.processGroup);
        const result = await runLoad({ http, clients, maxRequests: requestsPerRound, maxDurationMs: profile.roundMs * 3 });
        const cpuAfter = processGroupCpuMs(subject.processGroup);
        const total: Total = totals.get(subject.id) ?? { requests: 0, errors: 0, errorSamples: [], elapsedMs: 0, ok: 0, histogram: new Histogram(), stoppedByTime: false, roundThroughputs: [], cpuMs: 0 };
        total.cpuMs = total.cpuMs !== null && cpuBefore !== undefined && cpuAfter !== undefined ? total.cpuMs + (cpuAfter - cpuBefore) : null;
        total.roundThroughputs.push(Math.round(result.throughput * 100) / 100);
        total.requests += result.requests;
        total.errors += result.errors;
        total.errorSamples.push(...result.errorSamples.slice(0, 5 - total.errorSamples.length));
        total.elapsedMs += result.elapsedMs;
        total.ok += result.requests - result.errors;
        total.histogram.merge(result.histogram);
        total.stoppedByTime ||= result.stoppedByTime;
        totals.set(subject.id, total);
      }
    }

    return {
      id: scenario.id,
      title: scenario.title,
      description: scenario.description,
      requestsPerRound,
      subjects: prepared.map(({ subject }) => {
        const total = totals.get(subject.id);
        if (!total) throw new Error(`no measurement for ${subject.id}`);
        return {
          subject: subject.id,
          label: subject.label,
          requests: total.requests,
          errors: total.errors,
          errorSamples: total.errorSamples,
          elapsedMs: round(total.elapsedMs, 1),
          throughput: round((total.ok / total.elapsedMs) * 1000, 2),
          p50Ms: round(total.histogram.percentileMs(0.5), 3),
          p99Ms: round(total.histogram.percentileMs(0.99), 3),
          meanMs: round(total.histogram.meanMs(), 3),
          maxMs: round(total.histogram.maxMs(), 3),
          stoppedByTime: total.stoppedByTime,
          roundThroughputs: total.roundThroughputs,
          cpuMsPerRequest: total.cpuMs === null || total.requests === 0 ? null : round(total.cpuMs / total.requests, 3),
        };
      }),
    };
  } finally {
    for (const { http } of prepared) http.close();
  }
}
