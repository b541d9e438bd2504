import { deflateRawSync, inflateRawSync } from "node:zlib";
import { seal, unseal, unsealBytes } from "../security/tokens";
import { ANSWER_DICTIONARY_Z2 } from "./answer-dictionary";
import { jsonText, rememberJsonText } from "../../db/json-text";

/**
 * A stored idempotent answer: its JSON compressed (raw deflate), then sealed (AES-256-GCM), as base64url
 * with a version prefix. Written as "z2.": deflated at level 3 with a preset dictionary of the answers' keys
 * (./answer-dictionary.ts); a 5-line cart's record takes about 0.15 of the answer, a 100-line cart's 0.05.
 * Read as well: "z1." (deflated without a dictionary, written until 2026-11-25) and, without a prefix,
 * sealed plain JSON (before compression): records of either kind replay until they expire.
 *
 * The text an answer is packed from, or unpacked to, is remembered with the answer (db/json-text.ts):
 * the response sends it as it is.
 */
const Z2 = "z2.";
const Z1 = "z1.";
const DEFLATE_LEVEL = 3;

export function packAnswer(key: Buffer, body: unknown): string {
  // A cart's answer comes with its text already assembled (cart-view.ts); anything else is serialised here.
  const text = jsonText(body) ?? "null";
  rememberJsonText(body, text);
  return Z2 + seal(key, deflateRawSync(text, { level: DEFLATE_LEVEL, dictionary: ANSWER_DICTIONARY_Z2 }));
}

export function unpackAnswer(key: Buffer, stored: string): unknown {
  const text = answerJson(key, stored);
  const body = JSON.parse(text) as unknown;
  rememberJsonText(body, text);
  return body;
}

function answerJson(key: Buffer, stored: string): string {
  if (stored.startsWith(Z2)) return inflateRawSync(unsealBytes(key, stored.slice(Z2.length)), { dictionary: ANSWER_DICTIONARY_Z2 }).toString("utf8");
  if (stored.startsWith(Z1)) return inflateRawSync(unsealBytes(key, stored.slice(Z1.length))).toString("utf8");
  return unseal(key, stored);
}
