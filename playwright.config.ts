import { defineConfig, devices } from "@playwright/test";

/**
 * Browser tests of the demo storefront against the production build (`npm test` runs `next build`
 * first). Chromium is Debian's (`npx playwright install` cannot download here); point
 * PLAYWRIGHT_CHROMIUM_PATH at another build to use that instead.
 *
 * The server is `npm start` on its embedded defaults with a fresh in-memory PGlite per run
 * (migrated and seeded on start), so every run starts from the demo catalog and no earlier cart.
 * Payments go to the embedded simulated processor (no STRIPE_* variables), deliveries to the
 * simulated courier. E2E_PORT moves the server (default 3100) when another run holds that port.
 */
const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://127.0.0.1:${port}`;

const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

export default defineConfig({
  testDir: "e2e",
  testMatch: "*.spec.ts",
  outputDir: "test-results",
  // 2 cores: one browser at a time, next to the server.
  workers: 1,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  // A flaky test is a bug: no retries hide one.
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"], ["html", { open: "never", outputFolder: "playwright-report" }]] : [["list"]],
  use: {
    baseURL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  projects: [
    {
      name: "chromium",
      use: {
        ...devices["Desktop Chrome"],
        launchOptions: { executablePath: process.env.PLAYWRIGHT_CHROMIUM_PATH ?? "/usr/bin/chromium", args: chromiumArgs },
      },
    },
  ],
  webServer: {
    command: "npm start",
    // Answers once the database is migrated and seeded, not merely when the port opens.
    url: `${baseURL}/api/v1/storefront/locations/harbor-kitchen-downtown`,
    reuseExistingServer: !process.env.CI,
    timeout: 120_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      PORT: String(port),
      HOSTNAME: "127.0.0.1",
      PGLITE_DATA_DIR: "memory://",
      RATE_LIMIT_MAX: "100000",
      LOG_LEVEL: "warn",
      // POST /api/e2e/publish: the price-change scenario changes the catalog mid-test. Never set in a deployment.
      E2E_ADMIN_ROUTES: "true",
      // The simulated kitchen accepts a paid order after this long: short, so the receipt comes quickly.
      ORDER_ACCEPT_DELAY_SECONDS: "1",
    },
  },
});
