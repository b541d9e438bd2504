import { validationError } from "../errors";

/** Query parameters that look like credentials. Credentials belong in headers; we refuse, never honour, these. */
const CREDENTIAL_QUERY_KEYS = new Set([
  "token",
  "access_token",
  "accesstoken",
  "carttoken",
  "cart_token",
  "x-cart-token",
  "cartaccesstoken",
  "receipttoken",
  "receipt_token",
  "x-receipt-token",
  "authorization",
  "bearer",
  "jwt",
  "clientsecret",
  "client_secret",
  "api_key",
  "apikey",
]);

/** Credentials belong in headers: a query parameter that looks like one is refused (400), never honoured. */
export function refuseCredentialsInQuery(query: URLSearchParams): void {
  for (const key of query.keys()) {
    if (CREDENTIAL_QUERY_KEYS.has(key.toLowerCase())) {
      throw validationError("Credentials must be sent in headers, never in the query string", [{ path: `query.${key}`, message: "credential in query string" }]);
    }
  }
}
