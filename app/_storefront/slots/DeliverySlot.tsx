"use client";

import { useState } from "react";
import { CourierTipSection } from "../components/CourierTipSection";
import { DeliveryAddressForm } from "../components/DeliveryAddressForm";
import { cartIntents } from "../lib/api";
import { formatClock, formatMoney, isZeroDecimal, methodLabels, minorToDecimal } from "../lib/format";
import type { Cart, DeliveryQuote, Location } from "../lib/types";
import type { CartState } from "../lib/use-cart";
import styles from "../storefront.module.css";

export const DELIVERY_SECTION_ID = "delivery-section";

/**
 * Delivery carts: the address (the courier quotes it before it is stored, and may refuse it), the
 * courier's quote, and the courier tip. Totals stay with CartTotals: the courier fee is part of the
 * delivery charge there, the tip is its own row.
 */
export function DeliverySlot(props: { cart: Cart; cartState: CartState; location: Location }) {
  const { cart, cartState, location } = props;
  const [editing, setEditing] = useState(false);
  const info = cart.deliveryInfo;
  const open = cart.status === "OPEN";

  const save = async (address: Parameters<typeof cartIntents.setDelivery>[0]) => {
    const result = await cartState.run(cartIntents.setDelivery(address));
    if (result.ok) setEditing(false);
    return result;
  };

  return (
    <section aria-labelledby="delivery-heading" className={styles.cartSection} data-slot="delivery" id={DELIVERY_SECTION_ID} tabIndex={-1}>
      <h3 id="delivery-heading">{methodLabels.delivery} address</h3>
      {info && !editing ? (
        <div className={styles.inlineRow}>
          <p data-testid="delivery-address">{info.addressString}</p>
          {open ? (
            <button type="button" className={styles.linkButton} onClick={() => setEditing(true)}>
              Change address
            </button>
          ) : null}
        </div>
      ) : open ? (
        <>
          {info ? null : <p className={styles.muted}>Where should we bring your order? The courier quotes the delivery before it is saved.</p>}
          <DeliveryAddressForm location={location} initial={info?.addressData ?? null} onSave={save} onCancel={info ? () => setEditing(false) : undefined} />
        </>
      ) : null}
      {cart.deliveryQuote ? <QuoteSummary quote={cart.deliveryQuote} timeZone={location.timeZone} /> : null}
      {open && cart.items.length > 0 ? <CourierTipSection cart={cart} onSet={(amount) => cartState.run(cartIntents.courierTip(amount))} /> : null}
    </section>
  );
}

function QuoteSummary(props: { quote: DeliveryQuote; timeZone: string }) {
  const { quote, timeZone } = props;
  const fee = formatMoney(minorToDecimal(quote.feeMinor), quote.currency);
  const tax = minorToDecimal(quote.taxMinor);
  return (
    <dl className={styles.quote} data-testid="delivery-quote" aria-label="Courier quote">
      <div>
        <dt>Courier fee</dt>
        <dd data-testid="courier-fee">
          {fee}
          {isZeroDecimal(tax) ? "" : ` + ${formatMoney(tax, quote.currency)} tax`}
        </dd>
      </div>
      {quote.dropoffEstimatedAt ? (
        <div>
          <dt>Estimated arrival</dt>
          <dd data-testid="delivery-eta">{formatClock(quote.dropoffEstimatedAt, timeZone)}</dd>
        </div>
      ) : null}
      <div>
        <dt>Quote valid until</dt>
        <dd>{formatClock(quote.expiresAt, timeZone)}</dd>
      </div>
    </dl>
  );
}
