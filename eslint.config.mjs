import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: [".next/**", "node_modules/**", ".data/**", "next-env.d.ts", "test-results/**", "playwright-report/**", "bench/results/**", ".test-logs/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { attributes: false } }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-restricted-syntax": [
        "error",
        { selector: "MemberExpression[object.name='process'][property.name='env']", message: "Read configuration through server/env.ts." },
        {
          // The production bundle can hold two copies of a class (server/error-kind.ts).
          selector: "BinaryExpression[operator='instanceof'][right.name=/^(AppError|PaymentProcessorError|WebhookSignatureError|LedgerError|DatabaseDeadlineError)$/]",
          message: "Use isAppError / isPaymentProcessorError / isErrorKind (server/error-kind.ts): instanceof fails across bundle chunks.",
        },
        {
          // The VALIDATE_RESPONSES switch reaches only outputs declared through it (server/trpc/response-validation.ts).
          selector: "CallExpression[callee.property.name='output'][arguments.length=1]:not([arguments.0.callee.name='responseSchema'])",
          message: "Declare a procedure's output as .output(responseSchema(schema)) (server/trpc/response-validation.ts).",
        },
      ],
    },
  },
  {
    files: ["server/env.ts", "scripts/**", "bench/**", "e2e/**", "playwright.config.ts", "vitest.config.ts", "**/*.test.ts", "test/**", "drizzle.config.ts", "db/*-cli.ts"],
    rules: { "no-restricted-syntax": "off" },
  },
  // Layering: domain is pure, services know no transport, db knows the domain only by its types.
  {
    files: ["server/domain/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/db", "**/db/**", "drizzle-orm", "drizzle-orm/*", "postgres", "@electric-sql/*", "@upstash/*", "ioredis", "stripe", "nodemailer", "node:fs", "node:fs/*", "node:net", "node:http", "node:https", "node:child_process"],
              message: "server/domain is pure: no database, network or file I/O.",
            },
            { group: ["../services", "../services/*", "../http/*", "../trpc/*", "../routers/*", "../integrations/*", "../app/*", "../jobs/*", "../webhooks/*"], message: "server/domain depends on nothing above it." },
          ],
        },
      ],
    },
  },
  {
    files: ["server/services/**/*.ts"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ group: ["**/http/*", "**/trpc/*", "**/routers/*", "next", "next/*"], message: "Services know no transport: nothing from server/http, server/trpc or server/routers." }] }],
      "no-restricted-syntax": [
        "error",
        {
          selector: "MemberExpression[property.name='header']",
          message: "Services read no headers: the operation's kind (server/trpc/procedures.ts) puts the credential, the If-Match revision and the Idempotency-Key's transaction on the context.",
        },
      ],
    },
  },
  {
    files: ["db/**/*.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": ["error", { patterns: [{ group: ["**/server/domain/*"], allowTypeImports: true, message: "db imports only types from server/domain." }] }],
    },
  },
  { files: ["**/*.mjs"], ...tseslint.configs.disableTypeChecked },
  { files: ["**/*.mjs"], languageOptions: { globals: globals.node } },
);
