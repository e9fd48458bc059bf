import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { renderToString } from "react-dom/server";
import { LanguageProvider } from "../../../i18n/context";
import { LoginDialog } from "./LoginDialog";

describe("the login dialog opened by a lapsed session", () => {
  it("says why it opened, as its description, in the visitor's language", () => {
    for (const [lang, said] of [
      ["en", "Your session has expired. Please log in again."],
      ["sw", "Muda wako wa kuingia umekwisha. Tafadhali ingia tena."],
    ] as const) {
      const html = renderToString(
        <LanguageProvider lang={lang}>
          <LoginDialog
            reason={{ type: "error", key: "sessionExpired" }}
            onClose={() => {}}
            onSignedIn={async () => {}}
          />
        </LanguageProvider>,
      );
      const described = /aria-describedby="([^"]+)"/.exec(html)?.[1];
      assert.ok(described, html);
      assert.ok(
        html.includes(`<p id="${described}" class="dialog-reason form-message form-message-error">${said}</p>`),
        html,
      );
    }
    const plain = renderToString(
      <LanguageProvider lang={"en"}>
        <LoginDialog onClose={() => {}} onSignedIn={async () => {}} />
      </LanguageProvider>,
    );
    assert.ok(
      !/<dialog[^>]*aria-describedby/.test(plain) && !plain.includes("dialog-reason"),
      "opened from the header, it gives no reason",
    );
  });
});
