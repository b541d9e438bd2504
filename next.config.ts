import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite ships WASM and data files that must be loaded from node_modules at run time, not bundled.
  serverExternalPackages: ["@electric-sql/pglite", "postgres", "ioredis"],
  // Migrations are read from disk at start-up; make sure traced deployments carry them.
  outputFileTracingIncludes: { "/**": ["./db/migrations/**/*"] },
  poweredByHeader: false,
  // No gzip in the Node process: the API's answers are small JSON, and `npm start` serves the API from
  // its own mount, which must answer exactly as this one does. Vercel's edge compresses on its own;
  // behind your own proxy, let it compress (README, Self-hosting).
  compress: false,
  // A trailing slash under the API prefix is the API's to answer (a 404 envelope with the request id,
  // server/http/rest-routes.ts), not a bare 308 from the framework. Pages match with or without one.
  skipTrailingSlashRedirect: true,
};

export default nextConfig;
