import { randomBytes } from "node:crypto";

/** Opaque, unique, at least 8 characters (the spec's minimum): `req_` + 20 random base32 characters. */
export function newRequestId(): string {
  return `req_${randomBytes(12).toString("base64url")}`;
}
