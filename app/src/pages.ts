/**
 * Page components by `PageKind`. Each file under `pages/` is named after its
 * kind and becomes its own chunk in the browser; the build maps kinds to
 * chunks by that name, so the server can preload the right ones. The server
 * bundle inlines them (the promise resolves within the same render).
 */
import type { PageModule } from "./pages/props";
import type { PageKind } from "./routes";

export type { PageModule, PageProps } from "./pages/props";

export const pages: Record<PageKind, () => Promise<PageModule>> = {
  content: () => import("./pages/content"),
  newsList: () => import("./pages/newsList"),
  newsItem: () => import("./pages/newsItem"),
  deviceList: () => import("./pages/deviceList"),
  deviceItem: () => import("./pages/deviceItem"),
  faq: () => import("./pages/faq"),
  businessCategory: () => import("./pages/businessCategory"),
  businessItem: () => import("./pages/businessItem"),
  fraudster: () => import("./pages/fraudster"),
  account: () => import("./pages/account"),
  cpmLogin: () => import("./pages/cpmLogin"),
  cpmOtp: () => import("./pages/cpmOtp"),
  cpm: () => import("./pages/cpm"),
  businessCommunity: () => import("./pages/businessCommunity"),
  foundationApplication: () => import("./pages/foundationApplication"),
  search: () => import("./pages/search"),
  locator: () => import("./pages/locator"),
  offline: () => import("./pages/offline"),
  notFound: () => import("./pages/notFound"),
};

export function loadPage(kind: string): Promise<PageModule> {
  const load = pages[kind as PageKind] ?? pages.notFound;
  return load();
}
