/**
 * The interactive part of an interactive page (`interactivePages` in
 * routes.ts): the page component with what it reads (language, site,
 * account, the address), rendered as a root of its own on the server
 * (`entry-server.tsx`) and hydrated as one in the browser (`islands/page.tsx`).
 * The header, menu and footer around it stay server HTML, enhanced like a
 * content page's by `enhance/main.ts`, which also navigates: the island asks
 * it, through its `IslandHost`, to show another page or a toast.
 */
import { useMemo, useState, type ComponentType } from "react";
import { AddressProvider, type Navigate } from "./address";
import type { PageData, Subscriber } from "../contract";
import type { PageProps } from "../pages/props";
import { AccountProvider, type AccountActions } from "../features/account/AccountContext";
import { LanguageProvider } from "../i18n/context";
import { CatalogueBundles } from "../sections/BundleTable";
import type { IslandHost } from "./island";
import { SiteProvider, siteOf } from "./site";

const noop = () => {};

/** A navigation of the island goes to the host: a new page, not a re-render. */
function hostNavigate(host: IslandHost | undefined): Navigate {
  return (to, options) => void host?.navigate(to, Boolean(options?.replace));
}

export function PageIsland({
  data: initial,
  Page,
  url,
  host,
}: {
  data: PageData;
  Page: ComponentType<PageProps>;
  url: string;
  host?: IslandHost;
}) {
  const [data, setData] = useState(initial);
  const actions = useMemo<AccountActions | undefined>(
    () =>
      host && {
        // The same page again (signed in or out under it): fresh data in the island mounted, so what is typed in stays.
        refresh: async (to) => {
          if (to !== undefined && to !== location.pathname + location.search) return host.navigate(to, false);
          const fresh = await host.refresh();
          if (fresh) setData(fresh);
        },
        setSubscriber: (subscriber: Subscriber | null) => setData((shown) => ({ ...shown, subscriber })),
        lapsed: host.signedOut,
      },
    [host],
  );
  const navigate = useMemo(() => hostNavigate(host), [host]);
  return (
    <LanguageProvider lang={data.lang}>
      <SiteProvider value={siteOf(data)}>
        <AccountProvider subscriber={data.subscriber} actions={actions} toast={host?.toast ?? noop}>
          <AddressProvider url={url} navigate={navigate}>
            <CatalogueBundles.Provider value={data.bundles}>
              <Page data={data} />
            </CatalogueBundles.Provider>
          </AddressProvider>
        </AccountProvider>
      </SiteProvider>
    </LanguageProvider>
  );
}
