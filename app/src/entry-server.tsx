/**
 * Server entry, evaluated once per engine by `ssr-runtime`: defines
 * `globalThis.__ssr.render(request)`. It never fetches: the Rust server
 * passes everything the page needs.
 */
import "./server-polyfills";
import { renderToStaticMarkup, renderToString } from "react-dom/server.browser";
import { I18nextProvider } from "react-i18next";
import { StaticRouter } from "react-router";
import type { RenderOutput, RenderRequest } from "./contract";
import { App } from "./app/App";
import { Head } from "./app/head";
import { ToastProvider } from "./features/notifications/Toasts";
import { serverI18n } from "./i18n";
import { loadPage } from "./pages";

async function render(request: RenderRequest): Promise<RenderOutput> {
  const { data } = request;
  const i18n = serverI18n(data.lang);
  const { default: Page } = await loadPage(data.route.page);
  const html = renderToString(
    <I18nextProvider i18n={i18n}>
      <StaticRouter location={request.url}>
        <ToastProvider>
          <App shown={{ data, Page }} loading={false} />
        </ToastProvider>
      </StaticRouter>
    </I18nextProvider>,
  );
  const head = renderToStaticMarkup(<Head data={data} assets={request.assets} t={i18n.t} />);
  return { status: data.status, head, html };
}

(globalThis as unknown as { __ssr: unknown }).__ssr = { render };
