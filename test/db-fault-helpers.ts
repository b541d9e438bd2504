import { sql } from "drizzle-orm";
import postgres from "postgres";
import { expect } from "vitest";
import type { DatabaseHandle } from "../db/client";
import { queryRows } from "../db/rows";
import type { TestResponse } from "./harness";
import { ADMIN_URL, databaseUrl } from "./postgres-template";

/** The application_name every pooled connection of the service announces (db/open.ts). */
export const APP_NAME = "storefront-ordering-service";

/** The fault proxy's target: the Postgres server the tests use. */
export function postgresAddress(): { host: string; port: number } {
  const url = new URL(ADMIN_URL);
  return { host: url.hostname, port: Number(url.port || 5432) };
}

/**
 * A connection straight to the test database, around any proxy: holds locks the way another client
 * would, terminates the service's backends, and checks what was stored.
 */
export async function directClient(database: DatabaseHandle): Promise<{ direct: postgres.Sql; name: string }> {
  const [row] = await queryRows<{ name: string }>(database.db, sql`select current_database() as name`);
  if (!row) throw new Error("no current database");
  return { direct: postgres(databaseUrl(row.name), { max: 4, onnotice: () => undefined }), name: row.name };
}

/**
 * Locks one cart row in an open transaction of another client until `release` (which changes
 * nothing) or `commitRevisionBump` (another writer's change: the revision moves on by one).
 */
export async function holdCartLock(direct: postgres.Sql, cartId: string): Promise<{ release: () => Promise<void>; commitRevisionBump: () => Promise<void> }> {
  const reserved = await direct.reserve();
  await reserved`begin`;
  await reserved`select id from carts where id = ${cartId} for update`;
  return {
    release: async () => {
      await reserved`rollback`;
      reserved.release();
    },
    commitRevisionBump: async () => {
      await reserved`update carts set revision = revision + 1 where id = ${cartId}`;
      await reserved`commit`;
      reserved.release();
    },
  };
}

/** Waits until `count` of the service's backends wait on a lock (a request is parked inside its transaction). */
export async function waitForBlockedBackends(direct: postgres.Sql, name: string, count: number, timeoutMs = 5_000): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await direct<{ pid: number }[]>`
      select pid from pg_stat_activity
      where datname = ${name} and application_name = ${APP_NAME} and wait_event_type = 'Lock'`;
    if (rows.length >= count) return rows.map((row) => row.pid);
    if (Date.now() > deadline) throw new Error(`only ${rows.length} of ${count} backends blocked after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Kills every backend of the service on this database, the way a failover or an operator would. */
export async function terminateAppBackends(direct: postgres.Sql, name: string): Promise<number> {
  const rows = await direct<{ terminated: boolean }[]>`
    select pg_terminate_backend(pid) as terminated from pg_stat_activity
    where datname = ${name} and application_name = ${APP_NAME}`;
  return rows.filter((row) => row.terminated).length;
}

/** Records unhandled rejections and uncaught exceptions while a fault is in progress. */
export function processFaultSpy(): { readonly events: unknown[]; stop: () => void } {
  const events: unknown[] = [];
  const record = (event: unknown) => events.push(event);
  process.on("unhandledRejection", record);
  process.on("uncaughtException", record);
  return {
    events,
    stop: () => {
      process.off("unhandledRejection", record);
      process.off("uncaughtException", record);
    },
  };
}

/** 503 DEPENDENCY_UNAVAILABLE in the closed envelope, with Retry-After and nothing about the database's internals. */
export function expectUnavailable(response: TestResponse, label: string): void {
  expect(response.status, `${label}: ${response.text}`).toBe(503);
  const body = response.body as Record<string, unknown>;
  expect(Object.keys(body).sort(), label).toEqual(["code", "message", "requestId"]);
  expect(body.code, label).toBe("DEPENDENCY_UNAVAILABLE");
  expect(body.requestId, label).toBe(response.headers.get("x-request-id"));
  expect(Number(response.headers.get("retry-after")), label).toBeGreaterThan(0);
  // The message is what could leak; the request id is random and may spell anything (`req_..pg_..`).
  expect(body.message, label).not.toMatch(/127\.0\.0\.1|ECONN|CONNECT_TIMEOUT|CONNECTION_|DATABASE_|postgres|select |pg_|\bat \S+ \(|\.ts:\d/i);
}

export const elapsedSince = (started: number) => performance.now() - started;
