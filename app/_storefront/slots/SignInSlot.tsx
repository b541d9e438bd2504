"use client";

import Link from "next/link";
import { useState } from "react";
import { Modal } from "../components/Modal";
import { SIGN_IN_TITLE_ID, SignInForm } from "../components/SignInForm";
import { customerApi } from "../lib/api";
import { customerSessions, useCustomerSession } from "../lib/customer-session";
import { asStorefrontError } from "../lib/errors";
import type { Customer } from "../lib/types";
import styles from "../storefront.module.css";

export function customerLabel(customer: Customer): string {
  const name = [customer.customerName, customer.lastName].filter(Boolean).join(" ");
  return name || customer.customerEmail || customer.phoneNumber || "Your account";
}

/**
 * The right side of the top bar, next to the cart button: "Sign in" (a dialog with the e-mail and
 * code form) or, signed in, the customer's name linking to their account and "Sign out". The
 * session is per merchant and shared by every tab (lib/customer-session.ts).
 */
export function SignInSlot(props: { merchantSlug: string; locationSlug: string }) {
  const { merchantSlug, locationSlug } = props;
  const session = useCustomerSession(merchantSlug);
  const [open, setOpen] = useState(false);
  const [signingOut, setSigningOut] = useState(false);

  if (session) {
    const signOut = async () => {
      setSigningOut(true);
      try {
        await customerApi.logout(session.token);
      } catch (thrown) {
        // Already signed out (401) is the goal; anything else still signs this device out, and the token expires on its own.
        const error = asStorefrontError(thrown);
        if (error.status !== 401) console.warn("sign-out was not confirmed by the server", error.code);
      } finally {
        customerSessions.clear(merchantSlug);
        setSigningOut(false);
      }
    };
    return (
      <div className={styles.accountBar} data-testid="signed-in">
        <Link href={`/l/${locationSlug}/account`} className={styles.accountLink} title={session.customer.customerEmail}>
          {customerLabel(session.customer)}
        </Link>
        <button type="button" className={styles.linkButton} onClick={() => void signOut()} disabled={signingOut}>
          {signingOut ? "Signing out…" : "Sign out"}
        </button>
      </div>
    );
  }

  return (
    <>
      <button type="button" className={styles.secondaryButton} onClick={() => setOpen(true)} aria-haspopup="dialog" data-testid="sign-in">
        Sign in
      </button>
      <Modal open={open} onClose={() => setOpen(false)} labelledBy={SIGN_IN_TITLE_ID}>
        <SignInForm merchantSlug={merchantSlug} onDone={() => setOpen(false)} onCancel={() => setOpen(false)} />
      </Modal>
    </>
  );
}
