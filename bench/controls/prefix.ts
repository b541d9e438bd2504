/** Where both controls answer: /api/bench/{operation} (app/api/bench/[operation]/route.ts and node-server.ts). */
export const CONTROL_PREFIX = "/api/bench";
