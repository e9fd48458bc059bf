/**
 * Server entry, evaluated once per engine by `ssr-runtime`: defines
 * `globalThis.__ssr.render(request)`. It never fetches: the Rust server
 * passes everything the page needs.
 */
import "./server-polyfills";
import { renderToStaticMarkup, renderToString } from "react-dom/server.browser";
import { StaticRouter } from "react-router";
import type { RenderOutput, RenderRequest } from "./contract";
import { App } from "./app/App";
import { Head } from "./app/head";
import { ISLAND_ID_PREFIX } from "./app/island";
import { PageIsland } from "./app/PageIsland";
import { translator } from "./i18n";
import { LanguageProvider } from "./i18n/context";
import { loadPage } from "./pages";
import { interactivePages, type PageKind } from "./routes";

async function render(request: RenderRequest): Promise<RenderOutput> {
  const { data } = request;
  const { default: Page } = await loadPage(data.route.page);
  // An interactive page's island is a root of its own, as the browser hydrates it.
  const island =
    interactivePages.includes(data.route.page as PageKind) && !data.content.failed
      ? renderToString(<PageIsland data={data} Page={Page} url={request.url} />, { identifierPrefix: ISLAND_ID_PREFIX })
      : undefined;
  const html = renderToString(
    <LanguageProvider lang={data.lang}>
      <StaticRouter location={request.url}>
        <App shown={{ data, Page }} island={island} />
      </StaticRouter>
    </LanguageProvider>,
  );
  const head = renderToStaticMarkup(<Head data={data} assets={request.assets} t={translator(data.lang).t} />);
  return { status: data.status, head, html };
}

(globalThis as unknown as { __ssr: unknown }).__ssr = { render };
