/**
 * The origin the client addressed: its Host header, with the scheme of the request's URL. Not the
 * URL's own host: behind `next start` (REST_MOUNT=next under npm start) Next builds that URL from the
 * address the server listens on (http://0.0.0.0:3000), whatever host the client asked for. On Vercel
 * and on npm start's direct mount the two agree. The URL's scheme is the same on both mounts
 * (scripts/serve.mjs takes it from X-Forwarded-Proto as Next does). An unusable Host keeps the URL's.
 */
export function requestOrigin(request: Request, url: URL): string {
  const host = request.headers.get("host");
  // A Host that carries more than a host and port (a path, credentials, a query) is not one.
  if (!host || /[/@?#\\\s]/.test(host)) return url.origin;
  try {
    // The origin as URL writes it: lower case, a default port dropped (Host: shop.example.com:80).
    return new URL(`${url.protocol}//${host}`).origin;
  } catch {
    return url.origin;
  }
}
