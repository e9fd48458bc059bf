/**
 * Server entry, evaluated once per engine by `ssr-runtime`: defines
 * `globalThis.__ssr.render(request)`. It never fetches: the Rust server
 * passes everything the page needs.
 */
import "./server-polyfills";
import "./i18n/bundled";
import { renderToStaticMarkup, renderToString } from "react-dom/server.browser";
import { AddressProvider } from "./app/address";
import type { PartOutput, PartRequest, RenderOutput, RenderRequest } from "./contract";
import { AccountControlOf, App } from "./app/App";
import { AccountOverviewOf } from "./features/account/overview/AccountOverview";
import { PermissionsOf } from "./features/account/cpm/Cpm";
import { Head } from "./app/head";
import { ISLAND_ID_PREFIX } from "./app/island";
import { PageIsland } from "./app/PageIsland";
import { translator } from "./i18n";
import { LanguageProvider } from "./i18n/context";
import { loadPage } from "./pages";
import { interactivePages, type PageKind } from "./routes";

async function render(request: RenderRequest | PartRequest): Promise<RenderOutput | PartOutput> {
  if ("part" in request) {
    const { part } = request;
    return { html: renderToString("cpm" in part ? <PermissionsOf {...part} /> : <AccountOverviewOf {...part} />) };
  }
  const { data } = request;
  const { default: Page } = await loadPage(data.route.page);
  // An interactive page's island is a root of its own, as the browser hydrates it.
  const island =
    interactivePages.includes(data.route.page as PageKind) && !data.content.failed
      ? renderToString(<PageIsland data={data} Page={Page} url={request.url} />, { identifierPrefix: ISLAND_ID_PREFIX })
      : undefined;
  const html = renderToString(
    <LanguageProvider lang={data.lang}>
      <AddressProvider url={request.url}>
        <App shown={{ data, Page }} island={island} />
      </AddressProvider>
    </LanguageProvider>,
  );
  const head = renderToStaticMarkup(<Head data={data} assets={request.assets} t={translator(data.lang).t} />);
  const slot = request.accountSlot;
  const account =
    slot === undefined
      ? undefined
      : { signedOut: renderControl(request, undefined), signedIn: renderControl(request, slot, request.csrfSlot) };
  const personal = !request.personalPart || island === undefined ? undefined : renderPersonal(data);
  return { status: data.status, head, html, account, personal };
}

/** The page's personal part alone (the CPM page's permissions, the account page's details and balances), rendered as in the whole page. */
function renderPersonal(data: RenderRequest["data"]): string | undefined {
  if (data.cpm)
    return renderToString(<PermissionsOf lang={data.lang} path={data.path} cpm={data.cpm} csrf={data.csrf} />);
  if (data.subscriber) return renderToString(<AccountOverviewOf lang={data.lang} subscriber={data.subscriber} />);
  return undefined;
}

/** The page's account control alone, rendered as in the whole page. */
function renderControl(request: RenderRequest, names: string | undefined, csrf?: string): string {
  return renderToString(
    <LanguageProvider lang={request.data.lang}>
      <AddressProvider url={request.url}>
        <AccountControlOf data={request.data} names={names} csrf={csrf} />
      </AddressProvider>
    </LanguageProvider>,
  );
}

(globalThis as unknown as { __ssr: unknown }).__ssr = { render };
