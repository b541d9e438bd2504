import { describe, expect, it } from "vitest";
import { CartSession, handleStorageKey, memoryHandleStore, storageHandleStore, type CartCall, type CartIntent, type CartTransport, type CheckoutCall, type CheckoutHeaders, type CredentialHeaders, type HandleStore, type WriteHeaders } from "./cart-session";
import { NETWORK_ERROR, StorefrontError } from "./errors";
import type { Cart, FulfilmentMethod } from "./types";

const LOCATION = "loc_test";

/** token null: a customer's cart (owner), reachable with that customer's live bearer token. */
type ServerCart = { id: string; token: string | null; owner?: string; revision: number; items: string[]; status: Cart["status"]; method: FulfilmentMethod };
type Fault = "drop-request" | "drop-response" | "busy";

/**
 * A stand-in for the API with the server's rules that matter to the client: idempotency replay
 * before the If-Match check, compare-and-set on the revision (409 CART_CONFLICT), credentials.
 */
class FakeServer implements CartTransport {
  readonly carts = new Map<string, ServerCart>();
  readonly stored = new Map<string, Cart>();
  readonly writes: { headers: WriteHeaders | CheckoutHeaders; applied: boolean }[] = [];
  readonly storedValues = new Map<string, unknown>();
  readonly faults: Fault[] = [];
  /** Customer tokens that are signed in (a sign-out removes one). */
  readonly liveCustomers = new Set<string>();
  readonly customerStarts: { "Idempotency-Key": string; Authorization: string }[] = [];
  private sequence = 0;

  startCustomerCart(input: { locationId: string; fulfillmentMethod: FulfilmentMethod }, headers: { "Idempotency-Key": string; Authorization: string }) {
    this.customerStarts.push(headers);
    const customer = headers.Authorization.replace(/^Bearer /, "");
    if (!this.liveCustomers.has(customer)) return Promise.reject(apiError("UNAUTHORIZED", 401));
    const id = `cart_${++this.sequence}`;
    const cart: ServerCart = { id, token: null, owner: customer, revision: 0, items: [], status: "OPEN", method: input.fulfillmentMethod };
    this.carts.set(id, cart);
    return Promise.resolve({ cart: view(cart) });
  }

  /** The server's credential check: the capability when sent, else the customer's bearer token. */
  authorize(cart: ServerCart, headers: CredentialHeaders): StorefrontError | null {
    if ("X-Cart-Token" in headers) return cart.token !== null && cart.token === headers["X-Cart-Token"] ? null : apiError("UNAUTHORIZED", 401);
    const customer = headers.Authorization.replace(/^Bearer /, "");
    if (!this.liveCustomers.has(customer)) return apiError("UNAUTHORIZED", 401);
    return cart.owner === customer ? null : apiError("FORBIDDEN", 403);
  }

  startSession(input: { locationId: string; fulfillmentMethod: FulfilmentMethod }, headers: { "Idempotency-Key": string }) {
    const replay = this.stored.get(`start:${headers["Idempotency-Key"]}`);
    if (replay) return Promise.resolve({ cart: replay, cartAccessToken: `tok_${replay.id}` });
    const id = `cart_${++this.sequence}`;
    const token = `tok_${id}`;
    const cart: ServerCart = { id, token, revision: 0, items: [], status: "OPEN", method: input.fulfillmentMethod };
    this.carts.set(id, cart);
    this.stored.set(`start:${headers["Idempotency-Key"]}`, view(cart));
    return Promise.resolve({ cart: view(cart), cartAccessToken: token });
  }

  readCart(ref: { cartId: string }, headers: CredentialHeaders) {
    const cart = this.carts.get(ref.cartId);
    if (!cart) return Promise.reject(apiError("NOT_FOUND", 404));
    const refused = this.authorize(cart, headers);
    if (refused) return Promise.reject(refused);
    return Promise.resolve(view(cart));
  }

  add(item: string): CartIntent {
    return (ref, headers) => this.write(ref.cartId, headers, (cart) => cart.items.push(item));
  }

  /** Like POST .../expire: the cart closes (EXPIRED) at a new revision. */
  expire(): CartIntent {
    return (ref, headers) =>
      this.write(ref.cartId, headers, (cart) => {
        if (cart.status !== "OPEN") throw apiError("CART_IMMUTABLE", 409);
        cart.status = "EXPIRED";
      });
  }

  reject(code: string, status: number): CartIntent {
    return (ref, headers) => this.write(ref.cartId, headers, () => {
      throw apiError(code, status);
    });
  }

  /** Like payment-session: checks If-Match, moves the revision, answers something else. */
  paymentSession(): CartCall<{ sessionFor: number }> {
    return (ref, headers) => this.writeFor(ref.cartId, headers, (cart) => ({ sessionFor: cart.revision }));
  }

  /** Like POST .../payments: no If-Match; the cart is locked and then completed or reopened (two revisions). */
  pay(outcome: "paid" | "declined"): CheckoutCall<{ status: string }> {
    return (ref, headers) =>
      this.writeFor(ref.cartId, headers, (cart) => {
        cart.revision += 1;
        if (outcome === "paid") cart.status = "COMPLETED";
        return { status: outcome === "paid" ? "completed" : "failed" };
      });
  }

  private writeFor<T>(cartId: string, headers: WriteHeaders | CheckoutHeaders, change: (cart: ServerCart) => T): Promise<T> {
    const fault = this.faults.shift();
    if (fault === "drop-request") return Promise.reject(networkError());
    const key = `call:${headers["Idempotency-Key"]}`;
    if (this.storedValues.has(key)) {
      this.writes.push({ headers, applied: false });
      return Promise.resolve(this.storedValues.get(key) as T);
    }
    const cart = this.carts.get(cartId);
    if (!cart) return Promise.reject(apiError("NOT_FOUND", 404));
    if ("If-Match" in headers && headers["If-Match"] !== `"cart-${cart.revision}"`) {
      this.writes.push({ headers, applied: false });
      return Promise.reject(apiError("CART_CONFLICT", 409));
    }
    const value = change(cart);
    cart.revision += 1;
    this.storedValues.set(key, value);
    this.writes.push({ headers, applied: true });
    if (fault === "drop-response") return Promise.reject(networkError());
    return Promise.resolve(value);
  }

  private write(cartId: string, headers: WriteHeaders, change: (cart: ServerCart) => void): Promise<Cart> {
    const fault = this.faults.shift();
    if (fault === "drop-request") return Promise.reject(networkError());
    if (fault === "busy") return Promise.reject(apiError("IDEMPOTENCY_IN_PROGRESS", 409));
    const key = `write:${headers["Idempotency-Key"]}`;
    const replay = this.stored.get(key);
    if (replay) {
      this.writes.push({ headers, applied: false });
      return Promise.resolve(replay);
    }
    const cart = this.carts.get(cartId);
    if (!cart) return Promise.reject(apiError("NOT_FOUND", 404));
    const refused = this.authorize(cart, headers);
    if (refused) return Promise.reject(refused);
    if (headers["If-Match"] !== `"cart-${cart.revision}"`) {
      this.writes.push({ headers, applied: false });
      return Promise.reject(apiError("CART_CONFLICT", 409));
    }
    try {
      change(cart);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    cart.revision += 1;
    this.stored.set(key, view(cart));
    this.writes.push({ headers, applied: true });
    if (fault === "drop-response") return Promise.reject(networkError());
    return Promise.resolve(view(cart));
  }
}

/** Only the Cart fields the session reads; the rest of the API's Cart does not matter to it. */
function view(cart: ServerCart): Cart {
  return { id: cart.id, locationId: LOCATION, revision: cart.revision, status: cart.status, fulfilmentMethod: cart.method, items: cart.items.map((name) => ({ name })) } as unknown as Cart;
}

const names = (cart: Cart) => cart.items.map((item) => item.name);
const apiError = (code: string, status: number) => new StorefrontError({ code, message: code, status });
const networkError = () => new StorefrontError({ code: NETWORK_ERROR, message: "offline", status: null });

function session(server: FakeServer, store: HandleStore = memoryHandleStore(), customerToken?: () => string | null) {
  return new CartSession({ transport: server, store, sleep: () => Promise.resolve(), ...(customerToken ? { customerToken } : {}) });
}

const addIntents = (server: FakeServer) => ({ expire: server.expire(), lines: (guest: Cart) => guest.items.map((item) => server.add(item.name)) });

describe("CartSession", () => {
  it("keeps cart id, token and revision together in the store, so another session finds the cart", async () => {
    const server = new FakeServer();
    const store = memoryHandleStore();
    const first = session(server, store);
    await first.mutate(LOCATION, server.add("chowder"), "takeout");

    expect(store.read(LOCATION)).toEqual({ locationId: LOCATION, cartId: "cart_1", cartAccessToken: "tok_cart_1", revision: 1, fulfilmentMethod: "takeout" });
    const reloaded = await session(server, store).load(LOCATION);
    expect(reloaded && names(reloaded)).toEqual(["chowder"]);
  });

  it("sends a fresh Idempotency-Key and the current revision as If-Match on every write", async () => {
    const server = new FakeServer();
    const tab = session(server);
    await tab.mutate(LOCATION, server.add("a"), "takeout");
    await tab.mutate(LOCATION, server.add("b"));
    await tab.mutate(LOCATION, server.add("c"));

    const sent = server.writes.map((write) => write.headers as WriteHeaders);
    expect(sent.map((headers) => headers["If-Match"])).toEqual(['"cart-0"', '"cart-1"', '"cart-2"']);
    expect(new Set(sent.map((headers) => headers["Idempotency-Key"])).size).toBe(3);
    for (const headers of sent) expect(headers["Idempotency-Key"]).toMatch(/^[A-Za-z0-9._:-]{16,128}$/);
    expect(sent.every((headers) => "X-Cart-Token" in headers && headers["X-Cart-Token"] === "tok_cart_1")).toBe(true);
  });

  it("retries a write whose response was lost with the same key and If-Match, so it applies once", async () => {
    const server = new FakeServer();
    const tab = session(server);
    await tab.start(LOCATION, "takeout");
    server.faults.push("drop-response");

    const { cart } = await tab.mutate(LOCATION, server.add("burger"));

    expect(names(cart)).toEqual(["burger"]);
    expect(server.writes).toHaveLength(2);
    expect(server.writes[1]?.headers).toEqual(server.writes[0]?.headers);
    expect(server.writes.map((write) => write.applied)).toEqual([true, false]);
    expect(tab.handle(LOCATION)?.revision).toBe(1);
  });

  it("retries a request that never arrived, or met one in progress, with the same key", async () => {
    const server = new FakeServer();
    const tab = session(server);
    await tab.start(LOCATION, "takeout");
    server.faults.push("drop-request", "busy");

    const { cart } = await tab.mutate(LOCATION, server.add("fries"));

    expect(names(cart)).toEqual(["fries"]);
    expect(server.writes).toHaveLength(1);
  });

  it("gives up after its attempts when the network stays down", async () => {
    const server = new FakeServer();
    const tab = session(server);
    await tab.start(LOCATION, "takeout");
    server.faults.push("drop-request", "drop-request", "drop-request");

    await expect(tab.mutate(LOCATION, server.add("fries"))).rejects.toMatchObject({ code: NETWORK_ERROR });
    expect(server.carts.get("cart_1")?.items).toEqual([]);
  });

  it("does not retry a rejected request", async () => {
    const server = new FakeServer();
    const tab = session(server);
    await tab.start(LOCATION, "takeout");

    await expect(tab.mutate(LOCATION, server.reject("VALIDATION_ERROR", 400))).rejects.toMatchObject({ code: "VALIDATION_ERROR" });
    expect(server.faults).toEqual([]);
    expect(tab.handle(LOCATION)?.revision).toBe(0);
  });

  it("on CART_CONFLICT reloads the cart and applies the intent again, so two tabs lose no item", async () => {
    const server = new FakeServer();
    const tabA = session(server, memoryHandleStore());
    await tabA.mutate(LOCATION, server.add("chowder"), "takeout");
    // Tab B holds the same cart at revision 1 (its own storage, so no update reaches it).
    const storeB = memoryHandleStore();
    const handle = tabA.handle(LOCATION);
    if (!handle) throw new Error("tab A has no cart");
    storeB.write(handle);
    const tabB = session(server, storeB);

    await tabA.mutate(LOCATION, server.add("calamari"));
    const result = await tabB.mutate(LOCATION, server.add("lobster roll"));

    expect(result.recoveredFromConflict).toBe(true);
    expect(names(result.cart)).toEqual(["chowder", "calamari", "lobster roll"]);
    const [conflicted, retried] = server.writes.slice(-2).map((write) => write.headers as WriteHeaders);
    expect(conflicted?.["If-Match"]).toBe('"cart-1"');
    expect(retried?.["If-Match"]).toBe('"cart-2"');
    expect(retried?.["Idempotency-Key"]).not.toBe(conflicted?.["Idempotency-Key"]);
    expect(storeB.read(LOCATION)?.revision).toBe(3);
    const fromA = await tabA.load(LOCATION);
    expect(fromA && names(fromA)).toEqual(["chowder", "calamari", "lobster roll"]);
  });

  it("retries the intent only once: a second conflict reaches the caller", async () => {
    const server = new FakeServer();
    const tab = session(server);
    await tab.start(LOCATION, "takeout");
    let calls = 0;
    const alwaysLoses: CartIntent = (ref, headers) => {
      calls++;
      // Someone else writes between our reload and our retry, every time.
      const cart = server.carts.get(ref.cartId);
      if (cart) cart.revision += 1;
      return server.add("x")(ref, headers);
    };

    await expect(tab.mutate(LOCATION, alwaysLoses)).rejects.toMatchObject({ code: "CART_CONFLICT" });
    expect(calls).toBe(2);
  });

  it("runs one tab's writes one after another, so a double click does not conflict with itself", async () => {
    const server = new FakeServer();
    const tab = session(server);
    await tab.start(LOCATION, "takeout");

    const results = await Promise.all([tab.mutate(LOCATION, server.add("a")), tab.mutate(LOCATION, server.add("b")), tab.mutate(LOCATION, server.add("c"))]);

    expect(results.every((result) => !result.recoveredFromConflict)).toBe(true);
    expect(server.writes.map((write) => write.applied)).toEqual([true, true, true]);
    expect(server.carts.get("cart_1")?.items).toEqual(["a", "b", "c"]);
  });

  it("starts a session with the chosen method on the first write, and refuses a write without one", async () => {
    const server = new FakeServer();
    const tab = session(server);

    await expect(tab.mutate(LOCATION, server.add("a"))).rejects.toMatchObject({ code: "NO_CART" });
    const { cart } = await tab.mutate(LOCATION, server.add("a"), "delivery");
    expect(cart.fulfilmentMethod).toBe("delivery");
    expect(server.carts.size).toBe(1);
  });

  it("forgets a cart that expired, completed or is no longer reachable with its token", async () => {
    const server = new FakeServer();
    const store = memoryHandleStore();
    const tab = session(server, store);
    await tab.start(LOCATION, "takeout");
    const cart = server.carts.get("cart_1");
    if (!cart) throw new Error("no cart");

    cart.status = "EXPIRED";
    expect(await tab.load(LOCATION)).toBeNull();
    expect(store.read(LOCATION)).toBeNull();

    await tab.start(LOCATION, "takeout");
    server.carts.delete("cart_2");
    expect(await tab.load(LOCATION)).toBeNull();
    expect(tab.handle(LOCATION)).toBeNull();
  });

  it("keeps a server failure on load for the caller (the cart is not forgotten)", async () => {
    const server = new FakeServer();
    const tab = session(server);
    await tab.start(LOCATION, "takeout");
    server.readCart = () => Promise.reject(apiError("INTERNAL_ERROR", 500));

    await expect(tab.load(LOCATION)).rejects.toMatchObject({ code: "INTERNAL_ERROR" });
    expect(tab.handle(LOCATION)?.cartId).toBe("cart_1");
  });

  it("never moves the stored revision backwards, and adopts what another tab stored", async () => {
    const server = new FakeServer();
    const shared = memoryHandleStore();
    const tabA = session(server, shared);
    const tabB = session(server, shared);
    await tabA.mutate(LOCATION, server.add("a"), "takeout");
    expect(tabB.handle(LOCATION)?.revision).toBe(1);
    await tabA.mutate(LOCATION, server.add("b"));

    // B reads late: it saw revision 1 but the store says 2.
    expect(tabB.adoptStored(LOCATION)).toBe(true);
    expect(tabB.handle(LOCATION)?.revision).toBe(2);
    expect(tabB.adoptStored(LOCATION)).toBe(false);

    await tabA.start(LOCATION, "delivery");
    expect(tabB.adoptStored(LOCATION)).toBe(true);
    expect(tabB.handle(LOCATION)?.fulfilmentMethod).toBe("delivery");

    tabA.forget(LOCATION);
    expect(tabB.adoptStored(LOCATION)).toBe(true);
    expect(tabB.handle(LOCATION)).toBeNull();
  });
});

describe("CartSession writes that answer something other than the cart", () => {
  it("sends the current revision, then re-reads the cart so the next write does not conflict", async () => {
    const server = new FakeServer();
    const tab = session(server);
    await tab.mutate(LOCATION, server.add("chowder"), "takeout");

    const result = await tab.write(LOCATION, server.paymentSession());

    expect(result.value).toEqual({ sessionFor: 1 });
    expect(result.cart?.revision).toBe(2);
    expect(tab.handle(LOCATION)?.revision).toBe(2);
    expect((server.writes.at(-1)?.headers as WriteHeaders)["If-Match"]).toBe('"cart-1"');
    const next = await tab.mutate(LOCATION, server.add("fries"));
    expect(next.recoveredFromConflict).toBe(false);
    expect(server.writes.map((write) => write.applied)).toEqual([true, true, true]);
  });

  it("recovers from another tab's change like a cart write: reload, new key, once more", async () => {
    const server = new FakeServer();
    const tab = session(server);
    await tab.mutate(LOCATION, server.add("chowder"), "takeout");
    const cart = server.carts.get("cart_1");
    if (!cart) throw new Error("no cart");
    cart.revision = 5;

    const result = await tab.write(LOCATION, server.paymentSession());

    expect(result).toMatchObject({ value: { sessionFor: 5 }, recoveredFromConflict: true });
    const [lost, retried] = server.writes.slice(-2).map((write) => write.headers as WriteHeaders);
    expect([lost?.["If-Match"], retried?.["If-Match"]]).toEqual(['"cart-1"', '"cart-5"']);
    expect(retried?.["Idempotency-Key"]).not.toBe(lost?.["Idempotency-Key"]);
    expect(tab.handle(LOCATION)?.revision).toBe(6);
  });

  it("reports a payment without If-Match, retries a lost answer with the same key, and forgets the completed cart", async () => {
    const server = new FakeServer();
    const store = memoryHandleStore();
    const tab = session(server, store);
    await tab.mutate(LOCATION, server.add("chowder"), "takeout");
    server.faults.push("drop-response");

    const result = await tab.report(LOCATION, server.pay("paid"));

    expect(result.value).toEqual({ status: "completed" });
    expect(result.cart?.status).toBe("COMPLETED");
    const [first, retry] = server.writes.slice(-2);
    expect(first?.headers).toEqual(retry?.headers);
    expect(first?.headers).not.toHaveProperty("If-Match");
    expect([first?.applied, retry?.applied]).toEqual([true, false]);
    expect(tab.handle(LOCATION)).toBeNull();
    expect(store.read(LOCATION)).toBeNull();
  });

  it("keeps a declined cart, at its new revision, for the next attempt", async () => {
    const server = new FakeServer();
    const tab = session(server);
    await tab.mutate(LOCATION, server.add("chowder"), "takeout");

    const declined = await tab.report(LOCATION, server.pay("declined"));

    expect(declined.value.status).toBe("failed");
    expect(declined.cart).toMatchObject({ status: "OPEN", revision: 3 });
    const again = await tab.write(LOCATION, server.paymentSession());
    expect(again).toMatchObject({ value: { sessionFor: 3 }, recoveredFromConflict: false });
  });

  it("still answers the value when the re-read fails; the next write then recovers through a conflict", async () => {
    const server = new FakeServer();
    const tab = session(server);
    await tab.mutate(LOCATION, server.add("chowder"), "takeout");
    const readCart = server.readCart.bind(server);
    server.readCart = () => Promise.reject(apiError("INTERNAL_ERROR", 500));

    const result = await tab.write(LOCATION, server.paymentSession());
    expect(result).toMatchObject({ value: { sessionFor: 1 }, cart: undefined });
    expect(tab.handle(LOCATION)?.revision).toBe(1);

    server.readCart = readCart;
    const next = await tab.mutate(LOCATION, server.add("fries"));
    expect(next.recoveredFromConflict).toBe(true);
    expect(names(next.cart)).toEqual(["chowder", "fries"]);
  });

  it("refuses a write or report when there is no cart", async () => {
    const server = new FakeServer();
    const tab = session(server);
    await expect(tab.write(LOCATION, server.paymentSession())).rejects.toMatchObject({ code: "NO_CART" });
    await expect(tab.report(LOCATION, server.pay("paid"))).rejects.toMatchObject({ code: "NO_CART" });
  });
});

describe("CartSession with a signed-in customer", () => {
  function signedIn() {
    const server = new FakeServer();
    const store = memoryHandleStore();
    let token: string | null = "cust_ada";
    server.liveCustomers.add("cust_ada");
    const tab = session(server, store, () => token);
    return { server, store, tab, signOut: () => (token = null), signIn: () => (token = "cust_ada") };
  }

  it("starts customer carts with the bearer token and sends it, not a cart token, on every request", async () => {
    const { server, store, tab } = signedIn();
    await tab.mutate(LOCATION, server.add("a"), "takeout");
    await tab.mutate(LOCATION, server.add("b"));

    expect(server.customerStarts).toEqual([expect.objectContaining({ Authorization: "Bearer cust_ada" })]);
    expect(store.read(LOCATION)).toEqual({ locationId: LOCATION, cartId: "cart_1", cartAccessToken: null, revision: 2, fulfilmentMethod: "takeout" });
    const sent = server.writes.map((write) => write.headers);
    expect(sent.every((headers) => "Authorization" in headers && headers.Authorization === "Bearer cust_ada" && !("X-Cart-Token" in headers))).toBe(true);
    const reloaded = await session(server, store, () => "cust_ada").load(LOCATION);
    expect(reloaded && names(reloaded)).toEqual(["a", "b"]);
  });

  it("pays a customer cart with the bearer token too", async () => {
    const { server, tab } = signedIn();
    await tab.mutate(LOCATION, server.add("a"), "takeout");
    const { value, cart } = await tab.report(LOCATION, server.pay("paid"));
    expect(value).toEqual({ status: "completed" });
    expect(server.writes.at(-1)?.headers).toMatchObject({ Authorization: "Bearer cust_ada" });
    expect(cart?.status).toBe("COMPLETED");
    expect(tab.handle(LOCATION)).toBeNull();
  });

  it("after a sign-out lets go of the customer's cart (without asking the server) and starts a guest cart next", async () => {
    const { server, tab, signOut } = signedIn();
    await tab.mutate(LOCATION, server.add("a"), "takeout");
    signOut();
    const reads = server.writes.length;

    expect(await tab.load(LOCATION)).toBeNull();
    expect(server.writes.length).toBe(reads);
    const { cart } = await tab.mutate(LOCATION, server.add("b"), "takeout");
    expect(cart.id).toBe("cart_2");
    expect(tab.handle(LOCATION)?.cartAccessToken).toBe("tok_cart_2");
    expect(server.carts.get("cart_1")?.items).toEqual(["a"]);
  });

  it("forgetCustomerCart drops only a customer's cart", async () => {
    const { tab, signOut, signIn } = signedIn();
    signOut();
    await tab.start(LOCATION, "takeout");
    tab.forgetCustomerCart(LOCATION);
    expect(tab.handle(LOCATION)?.cartId).toBe("cart_1");

    signIn();
    tab.forget(LOCATION);
    await tab.start(LOCATION, "takeout");
    tab.forgetCustomerCart(LOCATION);
    expect(tab.handle(LOCATION)).toBeNull();
  });

  it("forgets a customer cart the server refuses (another customer signed in on this device)", async () => {
    const { server, store, tab } = signedIn();
    await tab.start(LOCATION, "takeout");
    server.liveCustomers.add("cust_bob");
    const bob = session(server, store, () => "cust_bob");
    expect(await bob.load(LOCATION)).toBeNull();
    expect(store.read(LOCATION)).toBeNull();
  });

  it("carries a guest cart's lines over to a new customer cart on sign-in and closes the guest cart", async () => {
    const { server, store, tab, signOut, signIn } = signedIn();
    signOut();
    await tab.mutate(LOCATION, server.add("chowder"), "delivery");
    await tab.mutate(LOCATION, server.add("burger"));
    signIn();

    const result = await tab.carryOver(LOCATION, addIntents(server));
    expect(result.moved).toBe(true);
    expect(result.cart && names(result.cart)).toEqual(["chowder", "burger"]);
    expect(result.cart?.fulfilmentMethod).toBe("delivery");
    expect(server.carts.get("cart_1")?.status).toBe("EXPIRED");
    expect(server.carts.get("cart_2")).toMatchObject({ owner: "cust_ada", token: null, items: ["chowder", "burger"] });
    expect(store.read(LOCATION)).toMatchObject({ cartId: "cart_2", cartAccessToken: null, revision: 2 });
    // Nothing more to move.
    expect(await tab.carryOver(LOCATION, addIntents(server))).toEqual({ moved: false, cart: null });
    expect(server.carts.size).toBe(2);
  });

  it("does not carry over while signed out, drops an empty guest cart, and leaves one being paid", async () => {
    const { server, tab, signOut, signIn } = signedIn();
    signOut();
    await tab.start(LOCATION, "takeout");
    expect(await tab.carryOver(LOCATION, addIntents(server))).toEqual({ moved: false, cart: null });
    expect(tab.handle(LOCATION)?.cartId).toBe("cart_1");

    signIn();
    expect(await tab.carryOver(LOCATION, addIntents(server))).toEqual({ moved: false, cart: null });
    expect(server.carts.get("cart_1")?.status).toBe("EXPIRED");
    expect(tab.handle(LOCATION)).toBeNull();

    signOut();
    await tab.mutate(LOCATION, server.add("a"), "takeout");
    const paying = server.carts.get("cart_2");
    if (!paying) throw new Error("no cart");
    paying.status = "LOCKED";
    signIn();
    const result = await tab.carryOver(LOCATION, addIntents(server));
    expect(result.moved).toBe(false);
    expect(result.cart?.status).toBe("LOCKED");
    expect(tab.handle(LOCATION)?.cartId).toBe("cart_2");
    expect(server.carts.size).toBe(2);
  });

  it("of two tabs, only the one whose expiry wins moves the guest cart; the other adopts its result", async () => {
    const server = new FakeServer();
    server.liveCustomers.add("cust_ada");
    const shared = memoryHandleStore();
    let token: string | null = null;
    const tabA = session(server, shared, () => token);
    const tabB = session(server, shared, () => token);
    await tabA.mutate(LOCATION, server.add("a"), "takeout");
    await tabB.load(LOCATION);
    token = "cust_ada";

    expect((await tabA.carryOver(LOCATION, addIntents(server))).moved).toBe(true);
    // Tab B still holds the guest cart at the revision it read: its expiry conflicts.
    expect(await tabB.carryOver(LOCATION, addIntents(server))).toEqual({ moved: false, cart: null });
    expect(tabB.handle(LOCATION)).toMatchObject({ cartId: "cart_2", cartAccessToken: null });
    expect(server.carts.size).toBe(2);
  });
});

describe("storageHandleStore", () => {
  function fakeStorage() {
    const entries = new Map<string, string>();
    return { entries, storage: { getItem: (key: string) => entries.get(key) ?? null, setItem: (key: string, value: string) => void entries.set(key, value), removeItem: (key: string) => void entries.delete(key) } };
  }

  it("stores one entry per location and ignores corrupt or foreign entries", () => {
    const { entries, storage } = fakeStorage();
    const store = storageHandleStore(storage);
    store.write({ locationId: LOCATION, cartId: "cart_1", cartAccessToken: "tok", revision: 3, fulfilmentMethod: "takeout" });
    expect(JSON.parse(entries.get(handleStorageKey(LOCATION)) ?? "null")).toMatchObject({ cartId: "cart_1", revision: 3 });

    entries.set(handleStorageKey("loc_other"), JSON.stringify({ locationId: LOCATION, cartId: "x", cartAccessToken: "t", revision: 0, fulfilmentMethod: "takeout" }));
    expect(store.read("loc_other")).toBeNull();
    store.write({ locationId: LOCATION, cartId: "cart_2", cartAccessToken: null, revision: 0, fulfilmentMethod: "takeout" });
    expect(store.read(LOCATION)).toMatchObject({ cartId: "cart_2", cartAccessToken: null });
    entries.set(handleStorageKey(LOCATION), "{not json");
    expect(store.read(LOCATION)).toBeNull();
    entries.set(handleStorageKey(LOCATION), JSON.stringify({ locationId: LOCATION, cartId: "c", cartAccessToken: "t", revision: -1, fulfilmentMethod: "takeout" }));
    expect(store.read(LOCATION)).toBeNull();
  });

  it("keeps working when storage throws (disabled or full)", () => {
    const broken = { getItem: () => { throw new Error("denied"); }, setItem: () => { throw new Error("full"); }, removeItem: () => { throw new Error("denied"); } };
    const store = storageHandleStore(broken);
    expect(() => store.write({ locationId: LOCATION, cartId: "c", cartAccessToken: "t", revision: 0, fulfilmentMethod: "takeout" })).not.toThrow();
    expect(store.read(LOCATION)).toBeNull();
    expect(() => store.remove(LOCATION)).not.toThrow();
  });
});
