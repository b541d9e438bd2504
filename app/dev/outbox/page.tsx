import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getAppDeps } from "@/server/app/container";
import { listOutboxMessages } from "@/server/integrations/otp-delivery/outbox";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Development outbox", robots: { index: false, follow: false } };

/**
 * The development outbox: the one-time codes the service "sent", newest first. It exists only while
 * the outbox is the configured delivery (no SMTP_URL); with SMTP configured it is a 404.
 */
export default async function OutboxPage() {
  const deps = await getAppDeps();
  if (deps.otpDelivery.name !== "outbox") notFound();
  const messages = await listOutboxMessages(deps.database.db);
  return (
    <main style={{ maxWidth: 760, margin: "0 auto", padding: "2rem 1rem" }}>
      <h1>Development outbox</h1>
      <p>
        Sign-in and verification codes are kept here instead of being sent, because no e-mail transport is configured (set <code>SMTP_URL</code> and{" "}
        <code>EMAIL_FROM</code> to send them). Anyone who can open this page can read them. Also as JSON at <code>/api/dev/outbox</code>.
      </p>
      {messages.length === 0 ? (
        <p>No messages yet.</p>
      ) : (
        <ol style={{ listStyle: "none", padding: 0 }}>
          {messages.map((message) => (
            <li key={`${message.createdAt}-${message.to}-${message.text}`} style={{ borderTop: "1px solid #ddd", padding: "0.75rem 0" }}>
              <div>
                <strong>{message.subject}</strong> <small>to {message.to}</small>
              </div>
              <div>{message.text}</div>
              <small>
                <time dateTime={message.createdAt}>{message.createdAt}</time>
              </small>
            </li>
          ))}
        </ol>
      )}
    </main>
  );
}
