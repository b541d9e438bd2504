import postgres from "postgres";
import { openInProcessApp } from "../query-count";
import type { TargetCheck } from "../targets";
import { openCart } from "./cart-session";
import { median, ms, ratio, type PhaseReport } from "./types";

export const REPLAY_MAX_RATIO = 0.5;
/** Issue 16: a stored answer takes at most this share of the answer's own size. */
export const STORED_BYTES_MAX_RATIO = 0.3;
const LINES = 5;

/**
 * Idempotent replay cost, in-process through the REST handler: each original add-item (fresh key,
 * current ETag) is immediately replayed byte for byte (same key, same If-Match, same body), which
 * must answer the stored outcome.
 */
export async function measureReplay(url: string, locationId: string, samples: number): Promise<PhaseReport> {
  const app = await openInProcessApp(url);
  try {
    const cart = await openCart(app, locationId);
    for (let line = 0; line < LINES; line += 1) await cart.addItem(line);
    const original: number[] = [];
    const replay: number[] = [];
    const statements = { original: new Set<number>(), replay: new Set<number>() };
    let mismatched = 0;
    const keys: string[] = [];
    const answerBytes: number[] = [];
    for (let sample = 0; sample < samples; sample += 1) {
      const request = cart.addItemRequest(sample % LINES);
      const first = await app.call("POST", request.path, 200, request.headers, request.body);
      keys.push(request.headers["idempotency-key"]);
      answerBytes.push(Buffer.byteLength(first.text));
      cart.setEtag(first.etag);
      const again = await app.call("POST", request.path, 200, request.headers, request.body);
      await app.idle();
      if (again.text !== first.text || again.etag !== first.etag) mismatched += 1;
      original.push(first.ms);
      replay.push(again.ms);
      statements.original.add(first.queries);
      statements.replay.add(again.queries);
    }
    const value = median(replay) / median(original);
    // What one record costs on disk: the sealed answer, its headers and the request fingerprint.
    const sql = postgres(url, { max: 1, onnotice: () => undefined });
    const stored = await sql<{ bytes: number }[]>`
      select octet_length(response_sealed) + octet_length(response_headers::text) + octet_length(request_fingerprint) as bytes
      from idempotency_records where key = any(${keys})`.finally(() => sql.end({ timeout: 5 }));
    const storedBytes = stored.map((row) => Number(row.bytes));
    const storedRatio = median(storedBytes) / median(answerBytes);
    const targets: TargetCheck[] = [
      { id: "replay-cost", description: `idempotent replay p50 <= ${REPLAY_MAX_RATIO} x original add item p50`, value: `${ratio(value)} (${ms(median(replay))} / ${ms(median(original))} ms)`, pass: value <= REPLAY_MAX_RATIO },
      {
        id: "idempotency-stored-bytes",
        description: `stored idempotency record bytes <= ${STORED_BYTES_MAX_RATIO} x the answer's bytes (p50)`,
        value: `${ratio(storedRatio)} (${median(storedBytes)} / ${median(answerBytes)} bytes, ${storedBytes.length} records)`,
        pass: storedBytes.length === keys.length && storedRatio <= STORED_BYTES_MAX_RATIO,
      },
      { id: "replay-same-outcome", description: "every replay answered the original body and ETag", value: `${mismatched} mismatches`, pass: mismatched === 0 },
    ];
    return {
      id: "replay",
      title: "Idempotent replay",
      description: `In-process through the REST handler: ${samples} add-item requests, each replayed right after with the same Idempotency-Key, If-Match and body.`,
      tables: [
        {
          title: "add item: original vs replay",
          header: ["request", "p50 ms", "x original", "statements"],
          rows: [
            ["original", ms(median(original)), "1.00", [...statements.original].join("/")],
            ["replay", ms(median(replay)), ratio(value), [...statements.replay].join("/")],
          ],
        },
        {
          title: "idempotency record size (p50, bytes)",
          header: ["answer (cart JSON)", "stored record (sealed answer + headers + fingerprint)", "x answer"],
          rows: [[String(median(answerBytes)), String(median(storedBytes)), ratio(storedRatio)]],
        },
      ],
      targets,
      data: {
        samples,
        originalP50Ms: median(original),
        replayP50Ms: median(replay),
        ratio: value,
        statements: { original: [...statements.original], replay: [...statements.replay] },
        storedBytes: { answerP50: median(answerBytes), recordP50: median(storedBytes), ratio: storedRatio },
      },
    };
  } finally {
    await app.close();
  }
}
