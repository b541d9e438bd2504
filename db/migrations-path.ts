import path from "node:path";

/** Migrations ship beside the build (see outputFileTracingIncludes in next.config.ts). */
export function migrationsFolder(): string {
  return path.join(process.cwd(), "db", "migrations");
}
