import { validationError } from "../errors";

/**
 * What marks a query parameter's name as a credential's, once folded to lower-case letters and digits
 * ("X-Cart-Token", "cart_token" and "cartToken" all read "carttoken"): any name containing one of
 * these words. None of the API's own query parameters (cartId, cursor, limit, date, orderDate,
 * orderTime, categoryId) does; the unit test holds that against the OpenAPI document.
 */
const CREDENTIAL_WORDS = ["token", "secret", "authorization", "bearer", "jwt", "apikey", "password", "session", "signature"];

export function looksLikeCredential(name: string): boolean {
  const folded = name.toLowerCase().replace(/[^a-z0-9]/g, "");
  return CREDENTIAL_WORDS.some((word) => folded.includes(word));
}

/** Credentials belong in headers: a query parameter that looks like one is refused (400), never honoured. */
export function refuseCredentialsInQuery(query: URLSearchParams): void {
  for (const key of query.keys()) {
    if (looksLikeCredential(key)) {
      throw validationError("Credentials must be sent in headers, never in the query string", [{ path: `query.${key}`, message: "credential in query string" }]);
    }
  }
}
