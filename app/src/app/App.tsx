/** The page shell shared by the server render and the browser. */
import type { ComponentType } from "react";
import { useT } from "../i18n/context";
import type { PageData } from "../contract";
import type { PageProps } from "../pages";
import { Header } from "../components/Header";
import { Footer } from "../components/Footer";
import { Breadcrumbs } from "../components/Breadcrumbs";
import { ContentFailure } from "../components/ContentFailure";
import { LoadingOverlay } from "../components/LoadingOverlay";
import { PopupBanner } from "../features/popups/PopupBanner";
import { AccountProvider, type AccountActions } from "../features/account/AccountContext";
import { AccountControl } from "../features/account/AccountControl";
import { FlashNotice } from "../features/account/FlashNotice";
import { useNotify } from "../features/notifications/Toasts";
import { languagePaths } from "../navigation/paths";
import { CatalogueBundles } from "../sections/BundleTable";
import { SiteProvider } from "./site";

/** Spec §9: the background is white unless the page's content sets one. */
export const DEFAULT_BACKGROUND = "#ffffff";

export interface Shown {
  data: PageData;
  Page: ComponentType<PageProps>;
}

/**
 * The page shown, whether it is loading, and (in the browser) what the
 * self-service screens may do with it: fetch it again after signing in or
 * out, show fresh balances.
 */
export function App({ shown, loading, account }: { shown: Shown; loading: boolean; account?: AccountActions }) {
  const t = useT();
  const notify = useNotify();
  const { data, Page } = shown;
  const background = data.content.page?.backgroundColor || DEFAULT_BACKGROUND;
  return (
    <SiteProvider value={{ lang: data.lang, path: data.path, route: data.route.name, paths: languagePaths(data) }}>
      <AccountProvider subscriber={data.subscriber} actions={account} toast={notify}>
        <a className="skip-link" href="#main">
          {t("site.skipToContent")}
        </a>
        <Header account={<AccountControl />} />
        <main id="main" tabIndex={-1} style={{ backgroundColor: background }}>
          <FlashNotice notice={data.notice} />
          <PopupBanner popups={data.content.popups} />
          <Breadcrumbs data={data} />
          <CatalogueBundles.Provider value={data.bundles}>
            {data.content.failed ? (
              <ContentFailure />
            ) : data.content.pageLang ? (
              <div lang={data.content.pageLang}>
                <Page data={data} />
              </div>
            ) : (
              <Page data={data} />
            )}
          </CatalogueBundles.Provider>
        </main>
        <Footer sidebar={data.content.sidebar} />
        {loading && <LoadingOverlay />}
      </AccountProvider>
    </SiteProvider>
  );
}
