import http, { type IncomingHttpHeaders } from "node:http";
import { Histogram } from "./histogram";

/**
 * A closed-loop HTTP load generator: a fixed number of virtual clients, each sending its next
 * request as soon as the previous one completed, over keep-alive connections, until a request
 * count or a duration is reached (whichever comes first). Only 127.0.0.1 is a valid target, and
 * every run is bounded in concurrency, count and time.
 */
export const LOAD_LIMITS = {
  maxConcurrency: 256,
  maxRequests: 1_000_000,
  maxDurationMs: 10 * 60_000,
  requestTimeoutMs: 30_000,
} as const;

export type RequestSpec = {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Any other status counts as an error. */
  expectStatus: number;
};

export type LoadResponse = { status: number; headers: IncomingHttpHeaders; body: string };

/**
 * One virtual client. `next` may do untimed work first (e.g. replace a full cart); only the request
 * it returns is timed. `onResponse` sees every timed response, expected or not.
 */
export type LoadClient = {
  next: () => RequestSpec | Promise<RequestSpec>;
  onResponse?: (response: LoadResponse, ok: boolean) => void;
};

export type LoadResult = {
  requests: number;
  errors: number;
  errorSamples: string[];
  elapsedMs: number;
  /** Completed requests with the expected status per second of wall time. */
  throughput: number;
  histogram: Histogram;
  /** True when the duration bound ended the run before the request count was reached. */
  stoppedByTime: boolean;
};

export function assertLocalTarget(baseUrl: string): URL {
  const url = new URL(baseUrl);
  if (url.protocol !== "http:" || url.hostname !== "127.0.0.1") {
    throw new Error(`load target must be http://127.0.0.1:<port>, got ${baseUrl}`);
  }
  return url;
}

/** Keep-alive HTTP/1.1 client for one target; also used for untimed setup requests. */
export class HttpClient {
  private readonly agent: http.Agent;
  private readonly target: URL;

  constructor(baseUrl: string, maxSockets: number) {
    this.target = assertLocalTarget(baseUrl);
    this.agent = new http.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets });
  }

  send(spec: RequestSpec): Promise<LoadResponse> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string | number> = { ...spec.headers };
      if (spec.body !== undefined) headers["content-length"] = Buffer.byteLength(spec.body);
      const request = http.request(
        {
          agent: this.agent,
          host: this.target.hostname,
          port: this.target.port,
          method: spec.method,
          path: spec.path,
          headers,
          timeout: LOAD_LIMITS.requestTimeoutMs,
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString("utf8") }));
          response.on("error", reject);
        },
      );
      request.on("timeout", () => request.destroy(new Error(`timed out after ${LOAD_LIMITS.requestTimeoutMs} ms`)));
      request.on("error", reject);
      request.end(spec.body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

export async function runLoad(options: { http: HttpClient; clients: LoadClient[]; maxRequests: number; maxDurationMs: number }): Promise<LoadResult> {
  const concurrency = options.clients.length;
  if (concurrency < 1 || concurrency > LOAD_LIMITS.maxConcurrency) throw new Error(`concurrency must be 1..${LOAD_LIMITS.maxConcurrency}`);
  const maxRequests = Math.min(Math.max(1, Math.floor(options.maxRequests)), LOAD_LIMITS.maxRequests);
  const maxDurationMs = Math.min(Math.max(1, options.maxDurationMs), LOAD_LIMITS.maxDurationMs);

  const histogram = new Histogram();
  const errorSamples: string[] = [];
  let issued = 0;
  let completed = 0;
  let errors = 0;
  let stoppedByTime = false;
  const started = performance.now();
  const deadline = started + maxDurationMs;

  const noteError = (message: string) => {
    errors += 1;
    if (errorSamples.length < 5) errorSamples.push(message);
  };

  async function worker(client: LoadClient): Promise<void> {
    for (;;) {
      if (issued >= maxRequests) return;
      if (performance.now() >= deadline) {
        stoppedByTime = true;
        return;
      }
      issued += 1;
      const spec = await client.next();
      const sent = performance.now();
      let response: LoadResponse;
      try {
        response = await options.http.send(spec);
      } catch (error) {
        noteError(`${spec.method} ${spec.path}: ${error instanceof Error ? error.message : String(error)}`);
        continue;
      }
      histogram.recordMs(performance.now() - sent);
      const ok = response.status === spec.expectStatus;
      if (ok) completed += 1;
      else noteError(`${spec.method} ${spec.path}: ${response.status} ${response.body.slice(0, 200)}`);
      client.onResponse?.(response, ok);
    }
  }

  await Promise.all(options.clients.map(worker));
  const elapsedMs = performance.now() - started;
  return {
    requests: completed + errors,
    errors,
    errorSamples,
    elapsedMs,
    throughput: (completed / elapsedMs) * 1000,
    histogram,
    stoppedByTime,
  };
}
