/**
 * The import boundaries of `eslint.config.mjs` hold: a feature importing
 * another feature, and shared code importing a feature, are lint errors;
 * a page putting features together is not.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { ESLint } from "eslint";

const eslint = new ESLint();
const IMPORT = (path: string) => `import { AccountOverviewOf } from "${path}";\nexport const x = AccountOverviewOf;\n`;

async function boundaryErrors(filePath: string, code: string): Promise<number> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((message) => message.ruleId === "import-x/no-restricted-paths").length;
}

test("a feature does not import another feature", async () => {
  assert.equal(await boundaryErrors("src/features/forms/Probe.tsx", IMPORT("../account/overview/AccountOverview")), 1);
});

test("shared code does not import a feature", async () => {
  assert.equal(
    await boundaryErrors("src/components/Probe.tsx", IMPORT("../features/account/overview/AccountOverview")),
    1,
  );
  assert.equal(await boundaryErrors("src/i18n/Probe.ts", IMPORT("../features/account/overview/AccountOverview")), 1);
  assert.equal(await boundaryErrors("src/Probe.ts", IMPORT("./features/account/overview/AccountOverview")), 1);
});

test("pages, islands and the server's entry put features together", async () => {
  assert.equal(await boundaryErrors("src/pages/Probe.tsx", IMPORT("../features/account/overview/AccountOverview")), 0);
  assert.equal(await boundaryErrors("src/entry-server.tsx", IMPORT("./features/account/overview/AccountOverview")), 0);
  assert.equal(await boundaryErrors("src/features/account/Probe.tsx", IMPORT("./overview/AccountOverview")), 0);
});
