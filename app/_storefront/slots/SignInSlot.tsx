/**
 * SLOT (issue 5, customer sign-in): the right side of the top bar, next to the cart button.
 *
 * To fill it: a "Sign in" button opening a dialog (components/Modal.tsx) that calls
 * `customer.login` (merchantSlug from location.merchant.slug, identifierString) and then
 * `customer.verifyOtp`; keep the merchant-bound JWT per merchant (never in a URL), and give
 * CartSession an `Authorization: Bearer` alternative to X-Cart-Token (lib/cart-session.ts
 * WriteHeaders) so a signed-in customer's cart follows them.
 */
export function SignInSlot(props: { merchantSlug: string }) {
  void props.merchantSlug;
  return null;
}
