/**
 * The contract between the Rust server and the app: what a render receives
 * and returns, and the page data that travels to the browser for hydration
 * and client-side navigation (`/_data/<path>`). Mirrors `ssr-runtime`'s
 * `RenderRequest` / `RenderOutput` and the server's `PageData`.
 */
import type { Lang, PageKind } from "./routes";

export interface Media {
  url: string;
  alternativeText?: string | null;
  width?: number | null;
  height?: number | null;
}

export interface Seo {
  metaTitle?: string | null;
  metaDescription?: string | null;
  shareImage?: Media | null;
}

/** One entry of a CMS dynamic zone. */
export interface Section {
  __component: string;
  id?: number;
  [field: string]: unknown;
}

/** A CMS single type after normalisation (attributes flattened, relations unwrapped). */
export interface PageContent {
  id?: number;
  title: string;
  seo?: Seo | null;
  backgroundColor?: string | null;
  sections: Section[];
}

export interface SidebarLink {
  label: string;
  url: string;
}

export interface Sidebar {
  links: SidebarLink[];
  footerNote?: string | null;
}

/** An item of a collection (news, sport, foundation, devices, business services, tricks). */
export interface CollectionItem {
  id: number;
  slug: string;
  title?: string;
  /** Devices have a name instead of a title. */
  name?: string;
  publishDate?: string | null;
  summary?: string | null;
  /** Sanitised HTML. */
  body?: string | null;
  image?: Media | null;
  category?: string | null;
  categoryId?: number | null;
  brand?: string | null;
  /** TZS. */
  price?: number | null;
  specification?: Record<string, string | null> | null;
}

export interface Popup {
  id: number;
  type: string;
  title: string;
  text?: string | null;
  image?: Media | null;
  cta?: { label: string; url: string } | null;
}

/** A bundle the subscriber holds (spec §3: balance.bundle). */
export interface BundleBalance {
  name: string;
  remaining: number;
  unit: "MB" | "MIN" | "SMS" | string;
  expiresAt?: string | null;
}

/** The authentication user of spec §3, as the server builds it. */
export interface Subscriber {
  msisdn: string | null;
  /** First and family name joined. */
  names: string;
  /** From the operator's paymentMethod: PREPAID or POSTPAID. */
  paymentType: string;
  minor: boolean;
  registrationStatus: string;
  scopes: string[];
  /** Null when the balances could not be read (spec §8: "Sorry an Error occured"). */
  balance: { mainBalance: number; bundle: BundleBalance[] } | null;
}

/** A toast from the server (spec §8): a key under `notify.` or the operator's own text. */
export interface Notice {
  type: "info" | "warning" | "error";
  key?: string;
  text?: string;
  /** Milliseconds; the toast default otherwise. */
  duration?: number;
}

/** A bundle that can be bought, in the page's language. */
export interface Bundle {
  id: string;
  name: string;
  /** TZS. */
  price: number;
  validity: string;
  type: string;
}

export interface Permission {
  id: string;
  name: string;
  description: string;
  granted: boolean;
}

export interface MatchedRoute {
  name: string;
  page: PageKind;
  params: Record<string, string>;
}

/** Everything a page needs; embedded in the HTML and served by `/_data/<path>`. */
export interface PageData {
  lang: Lang;
  /** The path without language prefix, e.g. `/internet-overview`. */
  path: string;
  status: number;
  route: MatchedRoute;
  content: {
    page: PageContent | null;
    /** Set when the page's content is in another language (Swahili missing, English shown). */
    pageLang?: Lang;
    sidebar: Sidebar | null;
    /** The route's collection list (`list`) or whole collection (`all`). */
    list?: CollectionItem[];
    /** The route's item (`item`, by `:id`). */
    item?: CollectionItem;
    /** Popups of the route's popup type, newest first. */
    popups?: Popup[];
  };
  /** The page's path (without language prefix) in each language, when they differ (items' slugs). */
  alternates?: Record<Lang, string>;
  subscriber: Subscriber | null;
  /** What a form post (no JavaScript) left for this page to show. */
  notice?: Notice;
  /** The customer permission management session, on its page. */
  cpm?: { msisdn: string; permissions: Permission[] };
  /** Bundles on sale, on the account page of a signed-in subscriber. */
  bundles?: Bundle[];
  /** Public address of the site, for canonical and alternate links. */
  siteUrl: string;
}

export interface PageAssets {
  stylesheets: string[];
  /** Module chunks of the page, preloaded so hydration does not wait on a waterfall. */
  preload: string[];
}

export interface RenderRequest {
  url: string;
  data: PageData;
  assets: PageAssets;
}

export interface RenderOutput {
  status: number;
  head: string;
  html: string;
}
