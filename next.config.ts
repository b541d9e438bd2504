import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite ships WASM and data files that must be loaded from node_modules at run time, not bundled.
  serverExternalPackages: ["@electric-sql/pglite", "postgres", "ioredis"],
  // Migrations are read from disk at start-up; make sure traced deployments carry them.
  outputFileTracingIncludes: { "/**": ["./db/migrations/**/*"] },
  poweredByHeader: false,
};

export default nextConfig;
