/** The page shell shared by the server render and the browser. */
import type { ComponentType } from "react";
import { useTranslation } from "react-i18next";
import type { PageData } from "../contract";
import type { PageProps } from "../pages";
import { Header } from "../components/Header";
import { Footer } from "../components/Footer";
import { Breadcrumbs } from "../components/Breadcrumbs";
import { LoadingOverlay } from "../components/LoadingOverlay";
import { PopupBanner } from "../features/popups/PopupBanner";
import { languagePaths } from "../navigation/paths";
import { SiteProvider } from "./site";

/** Spec §9: the background is white unless the page's content sets one. */
export const DEFAULT_BACKGROUND = "#ffffff";

export interface Shown {
  data: PageData;
  Page: ComponentType<PageProps>;
}

export function App({ shown, loading }: { shown: Shown; loading: boolean }) {
  const { t } = useTranslation();
  const { data, Page } = shown;
  const background = data.content.page?.backgroundColor || DEFAULT_BACKGROUND;
  return (
    <SiteProvider value={{ lang: data.lang, path: data.path, route: data.route.name, paths: languagePaths(data) }}>
      <a className="skip-link" href="#main">
        {t("site.skipToContent")}
      </a>
      <Header />
      <main id="main" tabIndex={-1} style={{ backgroundColor: background }}>
        <PopupBanner popups={data.content.popups} />
        <Breadcrumbs data={data} />
        {data.content.pageLang ? (
          <div lang={data.content.pageLang}>
            <Page data={data} />
          </div>
        ) : (
          <Page data={data} />
        )}
      </main>
      <Footer sidebar={data.content.sidebar} />
      {loading && <LoadingOverlay />}
    </SiteProvider>
  );
}
