"use client";

import Link from "next/link";
import { catalogApi, customerApi } from "../lib/api";
import { useCustomerSession } from "../lib/customer-session";
import type { Location } from "../lib/types";
import { useQuery } from "../lib/use-query";
import styles from "../storefront.module.css";
import { ErrorNotice } from "./ErrorNotice";
import { ReceiptView } from "./ReceiptView";

/** /l/{locationSlug}/receipts/{receiptId}: a receipt from the account's order history, opened with the customer's token. */
export function CustomerReceipt(props: { locationSlug: string; receiptId: string }) {
  const { locationSlug, receiptId } = props;
  const location = useQuery(`location:${locationSlug}`, () => catalogApi.location(locationSlug));
  return (
    <div className={styles.page}>
      <header className={styles.topbar}>
        <Link href={`/l/${locationSlug}/account`} className={styles.backLink}>
          ← Your account
        </Link>
      </header>
      <main className={`${styles.main} ${styles.narrow}`}>
        <h1>Your receipt</h1>
        {location.data ? (
          <SignedInReceipt location={location.data} receiptId={receiptId} />
        ) : location.error ? (
          <ErrorNotice error={location.error} title="We could not load this restaurant." onRetry={location.reload} />
        ) : (
          <p role="status">Loading…</p>
        )}
      </main>
    </div>
  );
}

function SignedInReceipt(props: { location: Location; receiptId: string }) {
  const { location, receiptId } = props;
  const session = useCustomerSession(location.merchant.slug);
  const token = session?.token ?? null;
  const receipt = useQuery(token ? `receipt:${token}:${receiptId}` : null, () => customerApi.receipt(token ?? "", receiptId));
  if (!token) {
    return (
      <p>
        This receipt belongs to an account. <Link href={`/l/${location.slug}/account`}>Sign in</Link> to see it.
      </p>
    );
  }
  if (receipt.data) return <ReceiptView receipt={receipt.data} />;
  if (receipt.error) return <ErrorNotice error={receipt.error} title="We could not load this receipt." onRetry={receipt.reload} />;
  return <p role="status">Loading your receipt…</p>;
}
