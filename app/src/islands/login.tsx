/**
 * The login dialog as an island of a content page: the enhancement script
 * imports this module (and with it React) on the first tap of "Log in" or
 * of a purchase link, and the dialog opens at once in a root of its own.
 * Closing it unmounts it; signing in runs `signedIn` (the enhancement script
 * shows the page again, now with the subscriber).
 */
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import type { PageData } from "../contract";
import { SiteProvider, siteOf } from "../app/site";
import { LoginDialog } from "../features/account/LoginDialog";
import { MODEM_BUNDLE_KEY } from "../features/account/AccountContext";
import { LanguageProvider } from "../i18n/context";

export function openLoginDialog(data: PageData, signedIn: () => Promise<void>) {
  const container = document.body.appendChild(document.createElement("div"));
  const root = createRoot(container);
  const close = () => {
    root.unmount();
    container.remove();
  };
  root.render(
    <StrictMode>
      <LanguageProvider lang={data.lang}>
        <SiteProvider value={siteOf(data)}>
          <LoginDialog
            onClose={close}
            onSignedIn={async () => {
              try {
                sessionStorage.removeItem(MODEM_BUNDLE_KEY);
              } catch {
                // storage unavailable: nothing to forget
              }
              await signedIn();
              close();
            }}
          />
        </SiteProvider>
      </LanguageProvider>
    </StrictMode>,
  );
}
