import { describe, expect, it } from "vitest";
import { openModals, subscribe, topModal } from "./open-modals";

// Only identity matters to the stack: plain objects stand in for the <dialog> elements.
const dialog = (name: string) => ({ name }) as unknown as HTMLDialogElement;

describe("the open modal dialogs", () => {
  it("names the one opened last as the top, whatever the order they close in, and tells its listeners", () => {
    const cart = dialog("cart");
    const signIn = dialog("sign-in");
    let changes = 0;
    const unsubscribe = subscribe(() => {
      changes += 1;
    });
    expect(topModal()).toBeNull();
    openModals.opened(cart);
    openModals.opened(signIn);
    expect(topModal()).toBe(signIn);
    openModals.closed(cart);
    expect(topModal()).toBe(signIn);
    openModals.opened(cart);
    expect(topModal()).toBe(cart);
    openModals.closed(cart);
    openModals.closed(signIn);
    expect(topModal()).toBeNull();
    // Closing one that is not open changes nothing and tells no one.
    openModals.closed(signIn);
    expect(changes).toBe(6);
    unsubscribe();
  });
});
