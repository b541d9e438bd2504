"use client";

import "@scalar/api-reference-react/style.css";
import type { ApiReferenceReact as ScalarApiReference } from "@scalar/api-reference-react";
import dynamic from "next/dynamic";

type Configuration = Parameters<typeof ScalarApiReference>[0]["configuration"];

// Scalar mounts a Vue app into the DOM; there is nothing to render on the server.
const ApiReferenceReact = dynamic(() => import("@scalar/api-reference-react").then((module) => module.ApiReferenceReact), {
  ssr: false,
  loading: () => <p style={{ padding: "2rem" }}>Loading the API reference...</p>,
});

/**
 * Everything that would reach a third party is off: deployments may have no internet access, and
 * the reference must not leak the document or the reader's requests to anyone.
 */
function configuration(url: string): Configuration {
  return {
    url,
    // Default fonts come from fonts.scalar.com; the page falls back to system fonts instead.
    withDefaultFonts: false,
    telemetry: false,
    // Both would upload the document to Scalar's service.
    agent: { disabled: true },
    mcp: { disabled: true },
    // Opens the hosted API client rather than the embedded one.
    hideClientButton: true,
    showDeveloperTools: "never",
    documentDownloadType: "json",
    operationTitleSource: "summary",
    showOperationId: true,
  };
}

export function ApiReference({ specUrl }: { specUrl: string }) {
  return <ApiReferenceReact configuration={configuration(specUrl)} />;
}
