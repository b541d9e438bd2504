import { brotliCompressSync, brotliDecompressSync, constants, deflateRawSync, inflateRawSync } from "node:zlib";
import { seal, unseal, unsealBytes } from "../security/tokens";
import { ANSWER_DICTIONARY_Z2 } from "./answer-dictionary";
import { jsonText, rememberJsonText } from "../../db/json-text";

/**
 * A stored idempotent answer: its JSON compressed, then sealed (AES-256-GCM), as base64url with a
 * version prefix. Written in one of two formats, by the answer's length:
 * - "z2.", below LARGE_ANSWER characters: deflated at level 3 with a preset dictionary of the answers'
 *   keys (./answer-dictionary.ts); a 5-line cart's record takes about 0.15 of the answer.
 * - "b1.", from LARGE_ANSWER characters on (a cart of ~15 lines and more): Brotli at quality 0, no
 *   dictionary. Deflate's time grows with the text past its 32 KB window, Brotli's barely: alone, a
 *   100-line cart's 100 KB took 73-77 us to deflate and 34-35 us at Brotli 0 here; in a running add
 *   to a 100-line cart, ~0.1 ms less CPU per add. Its lines repeat each other's names and keys, so
 *   the record still takes 0.04-0.09 of the answer. Below that length the dictionary matters more
 *   than the time: Brotli alone keeps 0.2-0.4 of a small cart, and takes as long.
 * Read as well: "z1." (deflated without a dictionary, written until 2026-11-25) and, without a prefix,
 * sealed plain JSON (before compression): records of any kind replay until they expire.
 *
 * The text an answer is packed from, or unpacked to, is remembered with the answer (db/json-text.ts):
 * the response sends it as it is.
 */
const Z2 = "z2.";
const Z1 = "z1.";
const B1 = "b1.";
const DEFLATE_LEVEL = 3;
const LARGE_ANSWER = 16_384;

export function packAnswer(key: Buffer, body: unknown): string {
  // A cart's answer comes with its text already assembled (cart-view.ts); anything else is serialised here.
  const text = jsonText(body) ?? "null";
  rememberJsonText(body, text);
  if (text.length >= LARGE_ANSWER) {
    const bytes = Buffer.from(text);
    return B1 + seal(key, brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 0, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }));
  }
  return Z2 + seal(key, deflateRawSync(text, { level: DEFLATE_LEVEL, dictionary: ANSWER_DICTIONARY_Z2 }));
}

export function unpackAnswer(key: Buffer, stored: string): unknown {
  const text = answerJson(key, stored);
  const body = JSON.parse(text) as unknown;
  rememberJsonText(body, text);
  return body;
}

function answerJson(key: Buffer, stored: string): string {
  if (stored.startsWith(B1)) return brotliDecompressSync(unsealBytes(key, stored.slice(B1.length))).toString("utf8");
  if (stored.startsWith(Z2)) return inflateRawSync(unsealBytes(key, stored.slice(Z2.length)), { dictionary: ANSWER_DICTIONARY_Z2 }).toString("utf8");
  if (stored.startsWith(Z1)) return inflateRawSync(unsealBytes(key, stored.slice(Z1.length))).toString("utf8");
  return unseal(key, stored);
}
