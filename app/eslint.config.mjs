// The app's lint: TypeScript's and React hooks' recommended rules, and the
// import boundaries of `src/`:
//
// - a feature (`src/features/<name>/`) never imports another feature;
// - what every page shares (components, content, i18n, navigation,
//   sections, seo, styles, the service worker and the top-level helpers)
//   never imports a feature. Pages, islands, `app/`, `enhance/` and the
//   entry points put features together.
//
// `npm run lint` (in `make test-app`); formatting is Prettier's
// (`npm run format`, checked by `npm run format:check`).
import js from "@eslint/js";
import importX from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

const FEATURES = ["account", "forms", "golden-minutes", "locator", "notifications", "popups"];
const SHARED = ["components", "content", "i18n", "navigation", "sections", "seo", "styles", "sw"];

export default tseslint.config(
  { ignores: ["node_modules/", "generated/", "dist/", "test-results/", "e2e/.shots*"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["src/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks, "import-x": importX },
    settings: { "import-x/resolver": { node: { extensions: [".ts", ".tsx", ".js", ".mjs"] } } },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // The app reads what only the browser knows (a draft in localStorage,
      // a banner dismissed, a countdown after a code was sent) after
      // hydration, in an effect: the server's render cannot, and the first
      // render must match it.
      "react-hooks/set-state-in-effect": "off",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "import-x/no-restricted-paths": [
        "error",
        {
          zones: [
            ...FEATURES.map((feature) => ({
              target: `./src/features/${feature}`,
              from: "./src/features",
              except: [`./${feature}`],
              message: "a feature does not import another feature: move what both need out of features/",
            })),
            ...SHARED.map((shared) => ({
              target: `./src/${shared}`,
              from: "./src/features",
              message: "shared code does not import a feature",
            })),
            {
              // Every file at the top of src/ but the server's entry point.
              target: "./src/!(entry-server).@(ts|tsx)",
              from: "./src/features",
              message: "shared code does not import a feature",
            },
          ],
        },
      ],
    },
  },
  {
    // Node scripts and browser tests (their page.evaluate bodies run in the page).
    files: ["scripts/**/*.mjs", "e2e/**/*.mjs", "*.mjs"],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  {
    // Built by scripts/build.mjs, which replaces the two lists.
    files: ["src/sw/service-worker.js"],
    languageOptions: { globals: { ...globals.serviceworker, __PRECACHE__: "readonly", __PRECACHE_MORE__: "readonly" } },
  },
);
