/** The whole page as the server renders it (header, main, the menu, footer); an interactive page's main holds its island. */
import type { ComponentType } from "react";
import { useT } from "../i18n/context";
import type { PageData } from "../contract";
import type { PageProps } from "../pages/props";
import { Header } from "../components/Header";
import { Footer } from "../components/Footer";
import { MainMenu } from "../components/MainMenu";
import { Breadcrumbs } from "../components/Breadcrumbs";
import { ContentFailure } from "../components/ContentFailure";
import { PreviewBar } from "../components/PreviewBar";
import { AccountProvider } from "../features/account/AccountContext";
import { AccountControl } from "../features/account/AccountControl";
import { FlashNotice } from "../features/account/FlashNotice";
import { TOASTS_CLASS } from "../features/notifications/toast";
import { CatalogueBundles } from "../sections/BundleTable";
import { ISLAND_ID } from "./island";
import { SiteProvider, siteOf } from "./site";

/** The background is white unless the page's content sets one. */
export const DEFAULT_BACKGROUND = "#ffffff";

export interface Shown {
  data: PageData;
  Page: ComponentType<PageProps>;
}

const noToast = () => {};

/**
 * The header's account control of the page `data` alone, as `App` renders
 * it there: signed out, or for a subscriber named `names` whose logout form
 * carries the token `csrf`. The server puts the signed-in one in place of
 * the other in the page it caches for everyone, for a signed-in visitor.
 */
export function AccountControlOf({ data, names, csrf }: { data: PageData; names?: string; csrf?: string }) {
  return (
    <SiteProvider value={{ ...siteOf(data), csrf }}>
      <AccountProvider
        subscriber={names === undefined ? null : { msisdn: "", names, balance: null, paymentMethods: [] }}
        toast={noToast}
      >
        <AccountControl />
      </AccountProvider>
    </SiteProvider>
  );
}

/**
 * The whole page, rendered on the server. An interactive page's island
 * (`PageIsland`, rendered as a root of its own) comes as `island`, its HTML,
 * put in place of the page component so the browser hydrates only it.
 */
export function App({ shown, island }: { shown: Shown; island?: string }) {
  const t = useT();
  const { data, Page } = shown;
  const background = data.content.page?.backgroundColor || DEFAULT_BACKGROUND;
  const page =
    island === undefined ? <Page data={data} /> : <div id={ISLAND_ID} dangerouslySetInnerHTML={{ __html: island }} />;
  return (
    <SiteProvider value={siteOf(data)}>
      <AccountProvider subscriber={data.subscriber} toast={noToast}>
        <a className="skip-link" href="#main">
          {t("site.skipToContent")}
        </a>
        {data.preview && <PreviewBar preview={data.preview} />}
        <Header account={<AccountControl />} />
        <main id="main" tabIndex={-1} style={{ backgroundColor: background }}>
          <FlashNotice notice={data.notice} />
          <Breadcrumbs data={data} />
          <CatalogueBundles.Provider value={data.bundles}>
            {data.content.failed ? (
              <ContentFailure />
            ) : data.content.pageLang ? (
              <div lang={data.content.pageLang}>{page}</div>
            ) : (
              page
            )}
          </CatalogueBundles.Provider>
        </main>
        <MainMenu />
        <Footer sidebar={data.content.sidebar} />
        <div className={TOASTS_CLASS} role="status" aria-live="polite" />
      </AccountProvider>
    </SiteProvider>
  );
}
