import { createHash } from "node:crypto";
import type { Redis } from "ioredis";
import type { ScriptRunner } from "./upstash";

/**
 * Lets @upstash/ratelimit run on a plain Redis server through ioredis. Its scripts begin with
 * `#!lua flags=allow-key-locking`, which Redis 7.0 rejects, so the shebang is stripped; the
 * library's script hashes are then mapped to the hashes of the stripped scripts.
 */
export function createRedisScriptRunner(client: Redis): ScriptRunner {
  const strippedShaByOriginal = new Map<string, string>();
  const sha1 = (text: string) => createHash("sha1").update(text).digest("hex");
  const strip = (script: string) => script.replace(/^#!lua[^\n]*\n/, "");
  const noScript = () => new Error("NOSCRIPT No matching script");

  return {
    async evalsha(hash, keys, args) {
      const stripped = strippedShaByOriginal.get(hash);
      if (!stripped) throw noScript();
      try {
        return await client.evalsha(stripped, keys.length, ...keys, ...args.map(String));
      } catch (error) {
        // A Redis restart forgets scripts; the caller falls back to eval, which reloads it.
        if (String(error).includes("NOSCRIPT")) strippedShaByOriginal.delete(hash);
        throw error;
      }
    },
    async eval(script, keys, args) {
      const stripped = strip(script);
      strippedShaByOriginal.set(sha1(script), sha1(stripped));
      return client.eval(stripped, keys.length, ...keys, ...args.map(String));
    },
  };
}
