import type { Metadata } from "next";
import { ApiReference } from "./api-reference";

export const metadata: Metadata = {
  title: "API reference",
  description: "Reference of the storefront ordering REST API, rendered from its OpenAPI document.",
};

// Served by app/api/v1/storefront/openapi.json/route.ts. Fetched by the browser rather than
// imported here, so the page's bundle carries no server code.
const SPEC_URL = "/api/v1/storefront/openapi.json";

export default function DocsPage() {
  return <ApiReference specUrl={SPEC_URL} />;
}
