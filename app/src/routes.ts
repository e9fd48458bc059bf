/**
 * The route table: the single source of truth for every URL of the site.
 * Both entries read it, and `scripts/build.mjs` writes it as
 * `routes.json` for the Rust router, which matches paths in table order (the
 * first match wins; the not-found catch-all comes last).
 *
 * It is data only: page components are looked up by `page` in `pages.ts`, so
 * generating the manifest does not pull in React. Paths use `:param` and
 * `:param?` segments. English lives at the path as written, Swahili under
 * `/sw` (see `localePath`). A route with an empty path is a menu heading.
 *
 * Content keys name the CMS single types (read at `/api/<key>`, see
 * `content/README.md`); `list`, `item` and `all` name collections.
 */
import type { PageKind, RouteDef, RouteMeta } from "../generated/contract";

/**
 * A route's shape (`RouteDef`, its `RouteMeta`, `CollectionList`,
 * `Redirect`) is written once, in Rust (`server/contract/src/route.rs`), and
 * generated: the table below is typed by it, and the server reads the
 * `routes.json` made of it with the same definitions. A page kind, a
 * collection or a form either side does not know fails `tsc` here or stops
 * the server's start.
 */
export type { CollectionList, Redirect, RouteDef, RouteMeta } from "../generated/contract";

/**
 * Which component renders a route (see `pages.ts`): written once, as the
 * server's `PageKind` enum (`server/contract/src/page.rs`), and generated
 * from it, so the server refuses a route table naming a kind it does not know.
 */
export type { PageKind };

/**
 * The page kinds that are React islands: their pages load React and hydrate
 * (login, account, purchase, the modem flow, CPM, the forms). Every other
 * kind is the server's HTML with the small enhancement script
 * (`enhance/main.ts`), which loads React only for the login dialog, when it
 * is opened. `scripts/build.mjs` writes this list into the asset manifest,
 * from which the server picks each page's scripts.
 */
export const interactivePages: readonly PageKind[] = [
  "account",
  "cpmLogin",
  "cpmOtp",
  "cpm",
  "businessCommunity",
  "foundationApplication",
];

type RouteOptions = Omit<Partial<RouteDef>, "name" | "path" | "page" | "meta"> & { meta?: Partial<RouteMeta> };

/**
 * A route of the table, its conventions filled in: its menu label is its
 * name (`navigation`), unless it is `invisible` (then it has one only where
 * given); and a list route keeps `page` among the query parameters that
 * tell its pages apart, which it cannot forget (page 2 would be kept and
 * served as page 1).
 */
export function route(name: string, path: string, page: PageKind | undefined, options: RouteOptions = {}): RouteDef {
  const { meta, ...rest } = options;
  if (rest.list) rest.query = [...(rest.query ?? []).filter((key) => key !== PAGE_QUERY), PAGE_QUERY];
  return {
    name,
    path,
    page,
    ...rest,
    meta: {
      ...(meta?.invisible ? {} : { navigation: name }),
      requiresAuth: false,
      isDynamic: Boolean(page),
      isPassThrough: false,
      invisible: false,
      noindex: false,
      invisibleChildren: false,
      isClickable: true,
      isVisible: true,
      pageName: name,
      ...meta,
    },
  };
}

/** The query parameter of a list's page number. */
export const PAGE_QUERY = "page";

/**
 * A Vodacom Business category: its services listed from the CMS by
 * `categoryId` (`id`), at `/vodacom-business/<id>/<slug>`, each service
 * linking with `services`.
 */
const businessCategory = (name: string, id: number, slug: string) =>
  route(name, `/vodacom-business/${id}/${slug}`, "businessCategory", {
    query: ["services"],
    content: "business-small",
    list: { collection: "vbu-services", pageSize: 100, filter: { field: "categoryId", value: String(id) } },
    parent: "business",
    meta: { isPassThrough: true },
  });

export const NOT_FOUND = "not-found";
/** The home page's route, by name: the server finds it so too (`contract::route::HOME`). */
export const HOME = "home";

export const routes: RouteDef[] = [
  route(HOME, "/", "content", { content: "home", popups: "home", meta: { navigation: "home", invisible: true } }),
  route("personal", "", undefined, { meta: { isClickable: false } }),
  route("digital", "/digital", "content", { content: "digital", parent: "personal" }),
  route("internet", "/internet-overview", "content", {
    content: "internet",
    parent: "personal",
  }),
  route("voice", "/voice-sms", "content", { content: "voice", parent: "personal" }),
  route("just-for-you", "/J4U", "content", {
    content: "just-for-you",
    parent: "personal",
  }),
  route("pinduapindua", "/pinduapindua", "content", {
    content: "pinduapindua",
    parent: "personal",
  }),
  route("roaming", "/international-roaming", "content", {
    content: "roaming",
    parent: "personal",
  }),
  route("international", "/international-calling", "content", {
    content: "international",
    parent: "personal",
  }),
  route("jimixie", "/jimixie", "content", { content: "jimixie", parent: "personal" }),
  route("redrlx", "/redrlx", "content", { content: "redrlx", parent: "personal" }),
  route("tuzo-points", "/tuzo-points", "content", {
    content: "tuzo-points",
    parent: "personal",
  }),
  route("uni-offer", "/uni-offer", "content", {
    content: "uni-offer",
    parent: "personal",
  }),
  route("lifestyle", "", undefined, { meta: { isClickable: false } }),
  route("showmax", "/showmax", "content", { content: "showmax", parent: "lifestyle" }),
  route("subscription", "/subscription", "content", {
    content: "subscription",
    parent: "lifestyle",
  }),
  route("devices", "/devices", "deviceList", {
    content: "device-catalogue",

    list: { collection: "device-updates", pageSize: 30 },
    parent: "lifestyle",
  }),
  route("device", "/devices/:id/:slug?", "deviceItem", {
    item: "device-updates",
    parent: "devices",
    meta: { invisible: true },
  }),
  route("vyb", "/vyb", "content", { content: "vyb", parent: "lifestyle" }),
  route("fwa", "/fwa", undefined, {
    redirect: { to: "https://fwa.vodacom.co.tz", permanent: false },
    parent: "lifestyle",
  }),
  route("5g", "/5G", undefined, {
    redirect: { to: "/fwa", permanent: true },
    parent: "lifestyle",
    meta: { invisible: true },
  }),
  route("sport-games", "", undefined, { meta: { isClickable: false } }),
  route("soka", "/soka", "newsList", {
    content: "sport",

    list: { collection: "sport-updates", pageSize: 20 },
    parent: "sport-games",
  }),
  route("chekecha-mkwanja", "/chekecha-mkwanja", "content", {
    content: "chekecha-mkwanja",
    parent: "sport-games",
  }),
  route("tusua-mapene", "/tusua-mapene", "content", {
    content: "tusua-mapene",
    parent: "sport-games",
  }),
  route("tusua-sport", "/tusua-sport", "content", {
    content: "tusua-sport",
    parent: "sport-games",
  }),
  route("sport-news", "/sport-news/:id/:slug?", "newsItem", {
    item: "sport-updates",
    parent: "soka",
    meta: { invisible: true },
  }),
  route("entertainment-group", "", undefined, { meta: { isClickable: false } }),
  route("the-best", "/the-best", "content", {
    content: "entertainment",
    parent: "entertainment-group",
  }),
  route("e-gazeti", "/e-gazeti", "content", {
    content: "e-gazeti",
    parent: "entertainment-group",
  }),
  route("story-box", "/story-box", "content", {
    content: "story-box",
    parent: "entertainment-group",
  }),
  route("magic", "/magic", "content", {
    content: "magic",
    parent: "entertainment-group",
  }),
  route("voda-habari", "/voda-habari", "content", {
    content: "voda-habari",
    parent: "entertainment-group",
  }),
  route("ndoto-media", "/ndoto-media", "content", {
    content: "ndoto-media",
    parent: "entertainment-group",
  }),
  route("callertunes", "/callertunes", "content", {
    content: "callertunes",
    parent: "entertainment-group",
  }),
  route("mdundo", "/mdundo", "content", {
    content: "mdundo",
    parent: "entertainment-group",
  }),
  route("new-mdundo", "/new-mdundo", "content", {
    content: "new-mdundo",
    parent: "entertainment-group",
  }),
  route("swipe-win", "/swipe-win", "content", {
    content: "swipe-win",
    parent: "entertainment-group",
  }),
  route("vtv", "/vtv", "content", { content: "vtv", parent: "entertainment-group" }),
  route("shake-win", "/shake-win", undefined, {
    redirect: { to: "https://shakewin.vodacom.co.tz", permanent: false },
    parent: "entertainment-group",
  }),
  route("services", "", undefined, { meta: { isClickable: false } }),
  route("moti", "/moti", "content", { content: "moti", parent: "services" }),
  route("smart-bango", "/smart-bango", "content", {
    content: "smart-bango",
    parent: "services",
  }),
  route("voda-njiwa", "/voda-njiwa", "content", {
    content: "voda-njiwa",
    parent: "services",
  }),
  route("nipige-tafu", "/nipige-tafu", "content", {
    content: "nipige-tafu",
    parent: "services",
  }),
  route("elimika", "/elimika", "content", { content: "elimika", parent: "services" }),
  route("afya-call", "/afya-call", "content", {
    content: "afya-call",
    parent: "services",
  }),
  route("google-play", "/google-play", "content", {
    content: "google-play",
    parent: "services",
  }),
  route("vodashop", "/vodashop/:region?/:district?", "locator", {
    content: "vodashop",
    locations: "shop",
    query: ["q", "region", "district", "page"],
    parent: "services",
  }),
  route("ushauri", "/ushauri", "content", { content: "ushauri", parent: "services" }),
  route("digital-hub", "/digital-hub", "content", {
    content: "digital-hub",
    parent: "services",
  }),
  route("ussd-service", "/ussd-service", "content", {
    content: "ussd-service",
    parent: "services",
  }),
  route("call-status", "/call-status", "content", {
    content: "call-status",
    parent: "services",
  }),
  route("education-portal", "/education-portal", "content", {
    content: "education-portal",
    parent: "services",
  }),
  route("connectu", "/connectu", undefined, {
    redirect: { to: "https://connectu.vodacom.co.tz", permanent: false, newTab: true },
    parent: "services",
  }),
  route("mpesa", "/mpesa", "content", { content: "mpesa", popups: "mpesa" }),
  route("loans-savings", "/loans-savings", "content", {
    content: "mpesa-loans",
    parent: "mpesa",
  }),
  route("songesha", "/songesha", "content", {
    content: "songesha",
    parent: "loans-savings",
  }),
  route("chomoka", "/chomoka", "content", {
    content: "chomoka",
    parent: "loans-savings",
  }),
  route("mgodi", "/mgodi", "content", { content: "mgodi", parent: "loans-savings" }),
  route("mpawa", "/mpawa", "content", { content: "mpawa", parent: "loans-savings" }),
  route("wakala-wezesha", "/wakala-wezesha", "content", {
    content: "wakala-wezesha",
    parent: "loans-savings",
  }),
  route("wakala-songesha", "/wakala-songesha", "content", {
    content: "wakala-songesha",
    parent: "loans-savings",
  }),
  route("merchant-loan", "/merchant-loan", "content", {
    content: "merchant-loan",
    parent: "loans-savings",
  }),
  route("halal", "/halal", "content", { content: "halal", parent: "loans-savings" }),
  route("digital-payments", "/digital-payments", "content", {
    content: "mpesa-payments",
    parent: "mpesa",
  }),
  route("mpesa-business-app", "/mpesa-business-app", "content", {
    content: "mpesa-business-app",
    parent: "digital-payments",
  }),
  route("mpesa-app", "/mpesa-app", "content", {
    content: "mpesa-app",
    parent: "digital-payments",
  }),
  route("visa-cards", "/visa-cards", "content", {
    content: "mpesa-cards",
    parent: "digital-payments",
  }),
  route("linked-cards", "/linked-cards", "content", {
    content: "linked-cards",
    parent: "digital-payments",
  }),
  route("mini-apps", "/mini-apps", "content", {
    content: "mini-apps",
    parent: "digital-payments",
  }),
  route("insurance", "/insurance", "content", {
    content: "mpesa-insurance",
    parent: "mpesa",
  }),
  route("insurance-loan", "/insurance-loan", "content", {
    content: "insurance-loan",
    parent: "insurance",
  }),
  route("lipa-kwa-simu", "/lipa-kwa-simu", "content", {
    content: "lipa-kwa-simu",
    parent: "insurance",
  }),
  route("business-payment", "/business-payment", "content", {
    content: "business-payment",
    parent: "insurance",
  }),
  route("motor-insurance", "/motor-insurance", "content", {
    content: "motor-insurance",
    parent: "insurance",
  }),
  route("afya-pass", "/afya-pass", "content", {
    content: "afya-pass",
    parent: "insurance",
  }),
  route("faraja-yangu", "/faraja-yangu", "content", {
    content: "faraja-yangu",
    parent: "insurance",
  }),
  route("life-insurance", "/life-insurance", "content", {
    content: "life-insurance",
    parent: "insurance",
  }),
  route("group-life", "/group-life", "content", {
    content: "group-life",
    parent: "insurance",
  }),
  route("financial-services", "/financial-services", "content", {
    content: "financial-services",
    parent: "mpesa",
  }),
  route("changisha", "/changisha", "content", {
    content: "changisha",
    parent: "financial-services",
  }),
  route("mkoba", "/mkoba", "content", {
    content: "mkoba",
    parent: "financial-services",
  }),
  route("m-wekeza", "/M-wekeza", "content", {
    content: "m-wekeza",
    parent: "financial-services",
  }),
  route("international-money-transfer", "/international-money-transfer", "content", {
    content: "mpesa-imt",
    parent: "mpesa",
  }),
  route("mpesa-agents", "/mpesa-agents/:region?/:district?", "locator", {
    content: "mpesa-agents",
    locations: "agent",
    query: ["q", "region", "district", "page"],
    parent: "international-money-transfer",
  }),
  route("payment-services", "/payment-services", "content", {
    content: "mpesa-collection",
    parent: "mpesa",
  }),
  route("business", "/vodacom-business", "content", {
    content: "business-small",
    popups: "business",
  }),
  businessCategory("business-large-mobile", 1, "large-mobile"),
  businessCategory("business-small-mobile", 2, "small-mobile"),
  businessCategory("business-iot", 5, "iot"),
  businessCategory("business-hosting", 6, "hosting"),
  businessCategory("business-mpesa-business", 7, "mpesa-business"),
  businessCategory("business-fixed-broadband", 8, "fixed-broadband"),
  businessCategory("business-cloud-security", 10, "cloud-security"),
  businessCategory("business-paas-digital-education", 11, "paas-digital-education"),
  businessCategory("business-paas-digital-farming", 14, "paas-digital-farming"),
  businessCategory("business-connectivity", 16, "connectivity"),
  route("business-community-form", "/vodacom-business/community", "businessCommunity", {
    form: "business-community",
    query: ["reference"],
    parent: "business",
    meta: { navigation: "business-community-form", invisible: true },
  }),
  route("business-service", "/vodacom-business/:id/:slug?", "businessItem", {
    item: "vbu-services",
    parent: "business",
    meta: { invisible: true },
  }),
  route("business-large", "/large", "content", {
    content: "business-large",
    parent: "business",
  }),
  route("business-mid", "/mid", "content", {
    content: "business-mid",
    parent: "business",
  }),
  route("supakasi", "/supakasi", "content", {
    content: "business-cars",
    parent: "business",
  }),
  route("vbu-lead-automation", "/vbu-lead-automation", "content", {
    content: "business-lead-automation",
    parent: "business",
  }),
  route("fiber", "/fiber", "content", { content: "fiber", parent: "business" }),
  route("devices-specification", "/devicesSpecification", "content", {
    content: "device-specification",
    parent: "business",
  }),
  route("device-ordering", "/device-ordering", "content", {
    content: "device-ordering",
    parent: "business",
  }),
  route("business-faq", "/vodacom-business-faq", "faq", {
    content: "business-faq",
    parent: "business",
  }),
  route("business-community", "/vodacombusinesscommunity", undefined, {
    redirect: { to: "/vodacom-business", permanent: true },
    parent: "business",
    meta: { invisible: true },
  }),
  route("investor", "", undefined, { meta: { isClickable: false } }),
  route("about-us", "/about-us", "content", {
    content: "about-us",
    parent: "investor",
  }),
  route("calendar", "/calendar", "content", {
    content: "investor-calendar",
    parent: "investor",
  }),
  route("executive-team", "/executive-team", "content", {
    content: "investor-executive-team",
    parent: "investor",
  }),
  route("board-members", "/board-members", "content", {
    content: "investor-board",
    parent: "investor",
  }),
  route("board-commitee", "/board-commitee", "content", {
    content: "board-committee",
    parent: "investor",
  }),
  route("announcements", "/announcements", "content", {
    content: "investor-announcements",
    parent: "investor",
  }),
  route("financials", "/financials", "content", {
    content: "financials",
    parent: "investor",
  }),
  route("annual-general-meeting", "/annual-general-meeting", "content", {
    content: "investor-agm",
    parent: "investor",
  }),
  route("dividends", "/dividends", "content", {
    content: "investor-dividends",
    parent: "investor",
  }),
  route("news-events", "/news-events", "newsList", {
    content: "news-events",

    list: { collection: "news-updates", pageSize: 9 },
    parent: "investor",
  }),
  route("news-event", "/news-event/:id/:slug?", "newsItem", {
    item: "news-updates",
    parent: "news-events",
    meta: { invisible: true },
  }),
  route("anniversary", "/25-anniversary", "content", {
    content: "anniversary",
    popups: "anniversary",
    parent: "investor",
  }),
  route("investor-videos", "/investor-videos", undefined, {
    redirect: { to: "https://www.youtube.com/@VodacomTanzania", permanent: false },
    parent: "investor",
  }),
  route("purpose", "", undefined, { meta: { isClickable: false } }),
  route("our-purpose", "/our-purpose", "content", {
    content: "our-purpose",
    parent: "purpose",
  }),
  route("foundation", "/foundation", "newsList", {
    content: "foundation",

    list: { collection: "foundation-updates", pageSize: 30 },
    parent: "purpose",
  }),
  route("foundation-apply", "/foundation/apply", "foundationApplication", {
    form: "foundation-application",
    query: ["reference"],
    parent: "foundation",
    meta: { navigation: "foundation-apply", invisible: true },
  }),
  route("foundation-news", "/foundation-news/:id/:slug?", "newsItem", {
    item: "foundation-updates",
    parent: "foundation",
    meta: { invisible: true },
  }),
  route("what-we-do", "/what-we-do", "content", {
    content: "what-we-do",
    parent: "purpose",
  }),
  route("foundation-about", "/aboutUs", "content", {
    content: "foundation-about",
    parent: "purpose",
  }),
  route("learning", "/learning", "content", {
    content: "foundation-learn",
    parent: "purpose",
  }),
  route("connected-health", "/connected-health", "content", {
    content: "foundation-health",
    parent: "purpose",
  }),
  route("planet", "/planet", "content", {
    content: "foundation-planet",
    parent: "purpose",
  }),
  route("financial-inclusion", "/financial-inclusion", "content", {
    content: "foundation-inclusion",
    parent: "purpose",
  }),
  route("education-inclusion", "/education-inclusion", "content", {
    content: "foundation-education",
    parent: "purpose",
  }),
  route("guidelines", "/guidelines", "content", {
    content: "foundation-funding-guidelines",
    parent: "purpose",
  }),
  route("volunteers", "/volunteers", "content", {
    content: "foundation-volunteers",
    parent: "purpose",
  }),
  route("our-goal", "/our-goal", "content", {
    content: "foundation-goals",
    parent: "purpose",
  }),
  route("help", "", undefined, { meta: { isClickable: false } }),
  route("customer-service", "/customer-service", "content", {
    content: "customer-service",
    parent: "help",
  }),
  route("contact-us", "/contact-us", "content", {
    content: "customer-contact",
    parent: "help",
  }),
  route("faq", "/faq/:item?", "faq", { content: "faq", parent: "help" }),
  route("digital-services-faqs", "/digital-services-faqs", "faq", {
    content: "faq-digital-services",
    parent: "help",
  }),
  route("bundles-faqs", "/bundles-faqs", "faq", {
    content: "faq-bundles",
    parent: "help",
  }),
  route("mpesa-faqs", "/M-pesa-faqs", "faq", {
    content: "faq-mpesa",
    parent: "help",
  }),
  route("fraudster", "/fraudster", "fraudster", {
    content: "fraudster",
    all: "trick-mobiles",
    parent: "help",
  }),
  route("sim-registration", "/sim-registration", "content", {
    content: "sim-registration",
    parent: "help",
  }),
  route("terms-conditions", "/terms-conditions", "content", {
    content: "terms",
    parent: "help",
  }),
  route("general-terms", "/general-terms", "content", {
    content: "terms-general",
    parent: "help",
  }),
  route("mpesa-terms", "/M-pesa-terms", "content", {
    content: "terms-mobile-money",
    parent: "help",
  }),
  route("digital-services-terms", "/digital-services-terms", "content", {
    content: "terms-digital-service",
    parent: "help",
  }),
  route("business-terms", "/vodacom-business-terms", "content", {
    content: "terms-business",
    parent: "help",
  }),
  route("bundles-terms", "/bundles-terms", "content", {
    content: "terms-bundle",
    parent: "help",
  }),
  route("devices-terms", "/devices-terms", "content", {
    content: "terms-device",
    parent: "help",
  }),
  route("privacy", "/privacy", "content", { content: "privacy", parent: "help" }),
  route("privacy-policy", "/privacy-policy", "content", {
    content: "candidate-privacy",
    parent: "help",
  }),
  route("bug-bounty", "/bug-bounty", "content", {
    content: "bug-bounty",
    parent: "help",
  }),
  route("suppliers", "/suppliers", "content", {
    content: "suppliers",
    parent: "help",
  }),
  route("shareholder-form", "/shareholder-form", "content", {
    content: "shareholder-form",
    parent: "help",
  }),
  route("cpm-login", "/cpm-login", "cpmLogin", {
    content: "cpm-login",
    query: ["msisdn"],
    parent: "help",
    meta: { noindex: true },
  }),
  route("cpm-otp", "/cpm-otp", "cpmOtp", {
    content: "cpm-otp",
    query: ["msisdn"],
    parent: "cpm-login",
    meta: { invisible: true, noindex: true },
  }),
  route("customer-permission-management", "/customer-permission-management", "cpm", {
    content: "customer-permission-management",
    parent: "cpm-login",
    meta: { invisible: true, requiresAuth: true, noindex: true },
  }),
  route("account", "/account", "account", {
    content: "account",
    // The sign-in step; the bundle a "Buy" link chose; the purchase's confirmation step (without JavaScript).
    query: ["step", "msisdn", "bundleId", "recipient", "subscriber", "purchaseChannel", "again"],
    meta: { invisible: true, noindex: true },
  }),
  route("search", "/search", "search", {
    query: ["q"],
    meta: { navigation: "search", invisible: true, noindex: true },
  }),
  // What the service worker shows for a page it does not hold while offline.
  route("offline", "/offline", "offline", { meta: { invisible: true, noindex: true } }),
  route("not-found", "/*", "notFound", { meta: { invisible: true } }),
];

export type Lang = "en" | "sw";
export const LANGS: readonly Lang[] = ["en", "sw"];
export const DEFAULT_LANG: Lang = "en";

/** `sw` in any case is Swahili, anything else English, as the server's `Lang::parse`. */
export function parseLang(value: string | null | undefined): Lang {
  return value?.toLowerCase() === "sw" ? "sw" : "en";
}

/** The address of `path` (written without language prefix) in `lang`. */
export function localePath(lang: Lang, path: string): string {
  if (lang === DEFAULT_LANG) return path;
  return path === "/" ? `/${lang}` : `/${lang}${path}`;
}

/** Splits an address into its language and the path without prefix. */
export function splitLang(pathname: string): { lang: Lang; path: string } {
  const m = /^\/sw(\/.*)?$/.exec(pathname);
  if (m) return { lang: "sw", path: m[1] || "/" };
  return { lang: "en", path: pathname || "/" };
}

export function routeByName(name: string): RouteDef | undefined {
  return routesByName.get(name);
}

/** The table by name, the first of a name winning as in a search of the table (a page asks several times per render). */
const routesByName = new Map<string, RouteDef>();
for (const route of routes) if (!routesByName.has(route.name)) routesByName.set(route.name, route);

/**
 * The path (without language prefix) of the first route rendered by page
 * kind `kind`, as the server's `RouteTable::path_of` finds it: where the app
 * sends a browser to such a page. The home page's for a kind the table has
 * no route of.
 */
export function pathOf(kind: PageKind): string {
  return pathsByKind.get(kind) ?? routeByName(HOME)?.path ?? "/";
}

/** The first route's path of each page kind. */
const pathsByKind = new Map<PageKind, string>();
for (const route of routes) if (route.page && !pathsByKind.has(route.page)) pathsByKind.set(route.page, route.path);

/** The route and its ancestors, outermost first (for breadcrumbs). */
export function routeTrail(name: string): RouteDef[] {
  const trail: RouteDef[] = [];
  for (let current = routeByName(name); current; current = current.parent ? routeByName(current.parent) : undefined) {
    trail.unshift(current);
  }
  return trail;
}
