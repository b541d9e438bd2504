"use client";

import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { customerApi } from "../lib/api";
import { customerSessions } from "../lib/customer-session";
import { asStorefrontError, type StorefrontError } from "../lib/errors";
import styles from "../storefront.module.css";
import { ErrorNotice } from "./ErrorNotice";

export const SIGN_IN_TITLE_ID = "sign-in-title";

type Step = { kind: "identify" } | { kind: "verify"; email: string; methodId: string };

/** What to tell the customer about a refused code: the attempts left, or that the code is dead. */
export function codeProblem(error: StorefrontError): string | null {
  if (error.status !== 401) return null;
  const remaining = error.details?.attemptsRemaining;
  if (typeof remaining === "number" && remaining > 0) return `That code is not correct. ${remaining} ${remaining === 1 ? "attempt" : "attempts"} left.`;
  return `${error.message}.`;
}

/**
 * Whether codes go to the development outbox (the embedded default, no SMTP configured): the
 * outbox route answers only then. Asked only after a code was sent, to point the demo user at it.
 */
function useDevOutbox(email: string | null): boolean {
  const [available, setAvailable] = useState(false);
  useEffect(() => {
    if (!email) return;
    let current = true;
    fetch(`/api/dev/outbox?to=${encodeURIComponent(email)}`, { cache: "no-store" }).then(
      (response) => {
        if (current) setAvailable(response.ok);
      },
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [email]);
  return available;
}

/**
 * Sign-in with a one-time code: the e-mail address, then the 6-digit code sent to it (and an
 * optional name for a first visit). The server's refusals are shown next to the field they concern.
 */
export function SignInForm(props: { merchantSlug: string; onDone: () => void; onCancel: () => void }) {
  const { merchantSlug, onDone, onCancel } = props;
  const [step, setStep] = useState<Step>({ kind: "identify" });
  const [email, setEmail] = useState("");
  const [code, setCode] = useState("");
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<StorefrontError | null>(null);
  const [sentNotice, setSentNotice] = useState<string | null>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  const ids = useId();
  const outbox = useDevOutbox(step.kind === "verify" ? step.email : null);

  useEffect(() => {
    if (step.kind === "verify") codeRef.current?.focus();
  }, [step]);

  const sendCode = async (address: string) => {
    setBusy(true);
    setError(null);
    try {
      const challenge = await customerApi.login(merchantSlug, address);
      setStep({ kind: "verify", email: address, methodId: challenge.methodId });
      setCode("");
      setSentNotice(`We sent a 6-digit code to ${address}. It works for 10 minutes.`);
    } catch (thrown) {
      setError(asStorefrontError(thrown));
    } finally {
      setBusy(false);
    }
  };

  const submitEmail = (event: FormEvent) => {
    event.preventDefault();
    const address = email.trim();
    if (!address) return;
    void sendCode(address);
  };

  const submitCode = async (event: FormEvent) => {
    event.preventDefault();
    if (step.kind !== "verify") return;
    setBusy(true);
    setError(null);
    try {
      const session = await customerApi.verifyOtp({
        merchantSlug,
        identifierString: step.email,
        methodId: step.methodId,
        otp: code.trim(),
        ...(name.trim() ? { customerName: name.trim() } : {}),
      });
      customerSessions.save(merchantSlug, session);
      onDone();
    } catch (thrown) {
      setError(asStorefrontError(thrown));
      codeRef.current?.focus();
    } finally {
      setBusy(false);
    }
  };

  const header = (
    <div className={styles.dialogHeader}>
      <div>
        <h2 id={SIGN_IN_TITLE_ID}>Sign in</h2>
        <p className={styles.muted}>Your orders and loyalty points follow you. No password: we send you a one-time code.</p>
      </div>
      <button type="button" className={styles.closeButton} onClick={onCancel} aria-label="Close">
        ×
      </button>
    </div>
  );

  if (step.kind === "identify") {
    return (
      <form onSubmit={submitEmail} className={styles.signInForm}>
        {header}
        <label className={styles.field} htmlFor={`${ids}-email`}>
          <span>E-mail address</span>
          <input id={`${ids}-email`} type="email" name="email" autoComplete="email" required value={email} onChange={(event) => setEmail(event.target.value)} disabled={busy} />
        </label>
        {error ? <ErrorNotice error={error} title="We could not send a code." /> : null}
        <div className={styles.actions}>
          <button type="submit" className={styles.primaryButton} disabled={busy || email.trim() === ""}>
            {busy ? "Sending…" : "Send code"}
          </button>
        </div>
      </form>
    );
  }

  const problem = error ? codeProblem(error) : null;
  const errorId = `${ids}-code-error`;
  return (
    <form onSubmit={(event) => void submitCode(event)} className={styles.signInForm}>
      {header}
      <p role="status">{sentNotice}</p>
      {outbox ? (
        <p className={styles.notice} data-testid="outbox-hint">
          Demo mode: no e-mail is sent. Read the code in the{" "}
          <a href="/dev/outbox" target="_blank" rel="noopener">
            development outbox
          </a>
          .
        </p>
      ) : null}
      <label className={styles.field} htmlFor={`${ids}-code`}>
        <span>6-digit code</span>
        <input
          ref={codeRef}
          id={`${ids}-code`}
          name="otp"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]{6}"
          maxLength={6}
          required
          value={code}
          onChange={(event) => setCode(event.target.value.replace(/\D/g, ""))}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? errorId : undefined}
          disabled={busy}
        />
      </label>
      {problem ? (
        <p className={styles.fieldError} id={errorId} role="alert" data-testid="code-error">
          {problem}
        </p>
      ) : null}
      <label className={styles.field} htmlFor={`${ids}-name`}>
        <span>
          Your name <span className={styles.muted}>(optional)</span>
        </span>
        <input id={`${ids}-name`} name="name" autoComplete="given-name" value={name} onChange={(event) => setName(event.target.value)} disabled={busy} maxLength={100} />
      </label>
      {error && !problem ? <ErrorNotice error={error} title="We could not sign you in." /> : null}
      <div className={styles.actions}>
        <button type="submit" className={styles.primaryButton} disabled={busy || code.length !== 6}>
          {busy ? "Signing in…" : "Sign in"}
        </button>
        <button type="button" className={styles.secondaryButton} onClick={() => void sendCode(step.email)} disabled={busy}>
          Send a new code
        </button>
        <button
          type="button"
          className={styles.linkButton}
          onClick={() => {
            setStep({ kind: "identify" });
            setError(null);
          }}
          disabled={busy}
        >
          Use another e-mail address
        </button>
      </div>
    </form>
  );
}
