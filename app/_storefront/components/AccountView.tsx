"use client";

import Link from "next/link";
import { useEffect, useState } from "react";
import { catalogApi, customerApi } from "../lib/api";
import { customerSessions, useCustomerSession, type CustomerSession } from "../lib/customer-session";
import type { StorefrontError } from "../lib/errors";
import { methodLabels } from "../lib/format";
import type { CustomerOrder, Location, LoyaltyLedger } from "../lib/types";
import { usePages } from "../lib/use-pages";
import { useQuery } from "../lib/use-query";
import { SignInSlot, customerLabel } from "../slots/SignInSlot";
import styles from "../storefront.module.css";
import { ErrorNotice } from "./ErrorNotice";

type LedgerEntry = LoyaltyLedger["entries"][number];

/** A refused token (signed out elsewhere, expired) signs this device out too. */
function useSignOutOn401(merchantSlug: string, errors: (StorefrontError | undefined)[]) {
  const unauthorized = errors.some((error) => error?.status === 401);
  useEffect(() => {
    if (unauthorized) customerSessions.clear(merchantSlug);
  }, [merchantSlug, unauthorized]);
}

function dateTime(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone }).format(new Date(iso));
}

/** /l/{locationSlug}/account: the signed-in customer's orders (newest first) and loyalty points at this location's merchant. */
export function AccountView(props: { locationSlug: string }) {
  const { locationSlug } = props;
  const location = useQuery(`location:${locationSlug}`, () => catalogApi.location(locationSlug));
  const menu = `/l/${locationSlug}`;
  return (
    <div className={styles.page}>
      <header className={styles.topbar}>
        <Link href={menu} className={styles.backLink}>
          ← Back to the menu
        </Link>
        {location.data ? (
          <div className={styles.topbarActions}>
            <SignInSlot merchantSlug={location.data.merchant.slug} locationSlug={location.data.slug} />
          </div>
        ) : null}
      </header>
      <main className={`${styles.main} ${styles.narrow}`}>
        <h1>Your account</h1>
        {location.data ? (
          <Account location={location.data} />
        ) : location.error ? (
          <ErrorNotice error={location.error} title="We could not load this restaurant." onRetry={location.reload} />
        ) : (
          <p role="status">Loading…</p>
        )}
      </main>
    </div>
  );
}

function Account(props: { location: Location }) {
  const { location } = props;
  const session = useCustomerSession(location.merchant.slug);
  if (!session) {
    return <p data-testid="signed-out">Sign in (top right) to see your orders and loyalty points at {location.merchant.displayName}.</p>;
  }
  return <SignedInAccount key={session.token} location={location} session={session} />;
}

function SignedInAccount(props: { location: Location; session: CustomerSession }) {
  const { location, session } = props;
  const { token, customer } = session;
  const orders = usePages<CustomerOrder>(`orders:${token}`, async (cursor) => {
    const page = await customerApi.orders(token, cursor);
    return { items: page.orders, nextCursor: page.nextCursor };
  });
  // The balance and the rule come with every ledger page; the first page's are shown.
  const [ledger, setLedger] = useState<LoyaltyLedger>();
  const entries = usePages<LedgerEntry>(`ledger:${token}:${location.id}`, async (cursor) => {
    const page = await customerApi.loyalty(token, location.id, cursor);
    if (!cursor) setLedger(page);
    return { items: page.entries, nextCursor: page.nextCursor };
  });
  useSignOutOn401(location.merchant.slug, [orders.error, entries.error]);

  return (
    <>
      <section aria-labelledby="profile-heading" className={styles.accountSection}>
        {/* The e-mail is shown once, below: without a name the heading does not repeat it. */}
        <h2 id="profile-heading">{customerLabel(customer) === customer.customerEmail ? "Profile" : customerLabel(customer)}</h2>
        <p className={styles.muted} data-testid="account-email">
          {customer.customerEmail}
        </p>
      </section>

      <section aria-labelledby="loyalty-heading" className={styles.accountSection} data-testid="loyalty">
        <h2 id="loyalty-heading">Loyalty points</h2>
        {ledger ? (
          <>
            <p className={styles.balance}>
              <strong data-testid="loyalty-balance">{ledger.balance}</strong> points at {location.merchant.displayName}
            </p>
            <p className={styles.muted}>
              You earn {ledger.pointsPerUnit} {ledger.pointsPerUnit === 1 ? "point" : "points"} per whole {location.currency.toUpperCase()} of each order&apos;s items, at every{" "}
              {location.merchant.displayName} location.
            </p>
          </>
        ) : !entries.loaded ? (
          <p role="status">Loading your points…</p>
        ) : null}
        {entries.items.length > 0 ? (
          <ul className={styles.ledgerList} aria-label="Points history" data-testid="ledger">
            {entries.items.map((entry) => (
              <li key={entry.id}>
                <span>
                  {entry.points > 0 ? "+" : ""}
                  {entry.points} points for an order
                </span>
                <span className={styles.muted}>{dateTime(entry.createdAt, location.timeZone)}</span>
              </li>
            ))}
          </ul>
        ) : entries.loaded && !entries.error ? (
          <p className={styles.muted}>No points yet: pay an order while signed in to earn some.</p>
        ) : null}
        {entries.error ? <ErrorNotice error={entries.error} title="We could not load your points." onRetry={entries.reload} /> : null}
        {entries.hasMore ? (
          <button type="button" className={styles.secondaryButton} onClick={entries.loadMore} disabled={entries.loading}>
            Show more
          </button>
        ) : null}
      </section>

      <section aria-labelledby="orders-heading" className={styles.accountSection}>
        <h2 id="orders-heading">Your orders</h2>
        {!orders.loaded ? <p role="status">Loading your orders…</p> : null}
        {orders.loaded && orders.items.length === 0 && !orders.error ? <p className={styles.muted}>No orders yet. Orders you pay while signed in appear here.</p> : null}
        {orders.items.length > 0 ? (
          <ol className={styles.orderList} data-testid="order-history">
            {orders.items.map((order) => (
              <li key={order.id} className={styles.orderRow} data-testid="order-history-entry">
                <div>
                  <strong>{order.restaurantDisplayName}</strong> · Order {order.orderNumber} · {dateTime(order.placedAt, location.timeZone)}
                </div>
                <div className={styles.muted}>
                  {order.lines.map((line) => `${line.quantity} × ${line.name}`).join(", ")} · {methodLabels[order.fulfilmentMethod]} ·{" "}
                  {order.status === "completed" ? "Confirmed" : "Waiting for the restaurant"}
                </div>
                <div className={styles.orderRowFooter}>
                  <span>{order.amountChargedFormatted}</span>
                  <Link href={`/l/${location.slug}/receipts/${order.receiptId}`} aria-label={`View receipt of the order placed ${dateTime(order.placedAt, location.timeZone)}`}>
                    View receipt
                  </Link>
                </div>
              </li>
            ))}
          </ol>
        ) : null}
        {orders.error ? <ErrorNotice error={orders.error} title="We could not load your orders." onRetry={orders.reload} /> : null}
        {orders.hasMore ? (
          <button type="button" className={styles.secondaryButton} onClick={orders.loadMore} disabled={orders.loading}>
            Show older orders
          </button>
        ) : null}
      </section>
    </>
  );
}
