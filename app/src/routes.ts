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

function route(name: string, path: string, page: PageKind | undefined, options: RouteOptions = {}): RouteDef {
  const { meta, ...rest } = options;
  return {
    name,
    path,
    page,
    ...rest,
    meta: {
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

export const NOT_FOUND = "not-found";
/** The home page's route, by name: the server finds it so too (`contract::route::HOME`). */
export const HOME = "home";

export const routes: RouteDef[] = [
  route(HOME, "/", "content", { content: "home", popups: "home", meta: { navigation: "home", invisible: true } }),
  route("personal", "", undefined, { meta: { navigation: "personal", isClickable: false } }),
  route("digital", "/digital", "content", { content: "digital", parent: "personal", meta: { navigation: "digital" } }),
  route("internet", "/internet-overview", "content", {
    content: "internet",
    parent: "personal",
    meta: { navigation: "internet" },
  }),
  route("voice", "/voice-sms", "content", { content: "voice", parent: "personal", meta: { navigation: "voice" } }),
  route("just-for-you", "/J4U", "content", {
    content: "just-for-you",
    parent: "personal",
    meta: { navigation: "just-for-you" },
  }),
  route("pinduapindua", "/pinduapindua", "content", {
    content: "pinduapindua",
    parent: "personal",
    meta: { navigation: "pinduapindua" },
  }),
  route("roaming", "/international-roaming", "content", {
    content: "roaming",
    parent: "personal",
    meta: { navigation: "roaming" },
  }),
  route("international", "/international-calling", "content", {
    content: "international",
    parent: "personal",
    meta: { navigation: "international" },
  }),
  route("jimixie", "/jimixie", "content", { content: "jimixie", parent: "personal", meta: { navigation: "jimixie" } }),
  route("redrlx", "/redrlx", "content", { content: "redrlx", parent: "personal", meta: { navigation: "redrlx" } }),
  route("tuzo-points", "/tuzo-points", "content", {
    content: "tuzo-points",
    parent: "personal",
    meta: { navigation: "tuzo-points" },
  }),
  route("uni-offer", "/uni-offer", "content", {
    content: "uni-offer",
    parent: "personal",
    meta: { navigation: "uni-offer" },
  }),
  route("lifestyle", "", undefined, { meta: { navigation: "lifestyle", isClickable: false } }),
  route("showmax", "/showmax", "content", { content: "showmax", parent: "lifestyle", meta: { navigation: "showmax" } }),
  route("subscription", "/subscription", "content", {
    content: "subscription",
    parent: "lifestyle",
    meta: { navigation: "subscription" },
  }),
  route("devices", "/devices", "deviceList", {
    content: "device-catalogue",
    query: ["page"],
    list: { collection: "device-updates", pageSize: 30 },
    parent: "lifestyle",
    meta: { navigation: "devices" },
  }),
  route("device", "/devices/:id/:slug?", "deviceItem", {
    item: "device-updates",
    parent: "devices",
    meta: { invisible: true },
  }),
  route("vyb", "/vyb", "content", { content: "vyb", parent: "lifestyle", meta: { navigation: "vyb" } }),
  route("fwa", "/fwa", undefined, {
    redirect: { to: "https://fwa.vodacom.co.tz", permanent: false },
    parent: "lifestyle",
    meta: { navigation: "fwa" },
  }),
  route("5g", "/5G", undefined, {
    redirect: { to: "/fwa", permanent: true },
    parent: "lifestyle",
    meta: { invisible: true },
  }),
  route("sport-games", "", undefined, { meta: { navigation: "sport-games", isClickable: false } }),
  route("soka", "/soka", "newsList", {
    content: "sport",
    query: ["page"],
    list: { collection: "sport-updates", pageSize: 20 },
    parent: "sport-games",
    meta: { navigation: "soka" },
  }),
  route("chekecha-mkwanja", "/chekecha-mkwanja", "content", {
    content: "chekecha-mkwanja",
    parent: "sport-games",
    meta: { navigation: "chekecha-mkwanja" },
  }),
  route("tusua-mapene", "/tusua-mapene", "content", {
    content: "tusua-mapene",
    parent: "sport-games",
    meta: { navigation: "tusua-mapene" },
  }),
  route("tusua-sport", "/tusua-sport", "content", {
    content: "tusua-sport",
    parent: "sport-games",
    meta: { navigation: "tusua-sport" },
  }),
  route("sport-news", "/sport-news/:id/:slug?", "newsItem", {
    item: "sport-updates",
    parent: "soka",
    meta: { invisible: true },
  }),
  route("entertainment-group", "", undefined, { meta: { navigation: "entertainment-group", isClickable: false } }),
  route("the-best", "/the-best", "content", {
    content: "entertainment",
    parent: "entertainment-group",
    meta: { navigation: "the-best" },
  }),
  route("e-gazeti", "/e-gazeti", "content", {
    content: "e-gazeti",
    parent: "entertainment-group",
    meta: { navigation: "e-gazeti" },
  }),
  route("story-box", "/story-box", "content", {
    content: "story-box",
    parent: "entertainment-group",
    meta: { navigation: "story-box" },
  }),
  route("magic", "/magic", "content", {
    content: "magic",
    parent: "entertainment-group",
    meta: { navigation: "magic" },
  }),
  route("voda-habari", "/voda-habari", "content", {
    content: "voda-habari",
    parent: "entertainment-group",
    meta: { navigation: "voda-habari" },
  }),
  route("ndoto-media", "/ndoto-media", "content", {
    content: "ndoto-media",
    parent: "entertainment-group",
    meta: { navigation: "ndoto-media" },
  }),
  route("callertunes", "/callertunes", "content", {
    content: "callertunes",
    parent: "entertainment-group",
    meta: { navigation: "callertunes" },
  }),
  route("mdundo", "/mdundo", "content", {
    content: "mdundo",
    parent: "entertainment-group",
    meta: { navigation: "mdundo" },
  }),
  route("new-mdundo", "/new-mdundo", "content", {
    content: "new-mdundo",
    parent: "entertainment-group",
    meta: { navigation: "new-mdundo" },
  }),
  route("swipe-win", "/swipe-win", "content", {
    content: "swipe-win",
    parent: "entertainment-group",
    meta: { navigation: "swipe-win" },
  }),
  route("vtv", "/vtv", "content", { content: "vtv", parent: "entertainment-group", meta: { navigation: "vtv" } }),
  route("shake-win", "/shake-win", undefined, {
    redirect: { to: "https://shakewin.vodacom.co.tz", permanent: false },
    parent: "entertainment-group",
    meta: { navigation: "shake-win" },
  }),
  route("services", "", undefined, { meta: { navigation: "services", isClickable: false } }),
  route("moti", "/moti", "content", { content: "moti", parent: "services", meta: { navigation: "moti" } }),
  route("smart-bango", "/smart-bango", "content", {
    content: "smart-bango",
    parent: "services",
    meta: { navigation: "smart-bango" },
  }),
  route("voda-njiwa", "/voda-njiwa", "content", {
    content: "voda-njiwa",
    parent: "services",
    meta: { navigation: "voda-njiwa" },
  }),
  route("nipige-tafu", "/nipige-tafu", "content", {
    content: "nipige-tafu",
    parent: "services",
    meta: { navigation: "nipige-tafu" },
  }),
  route("elimika", "/elimika", "content", { content: "elimika", parent: "services", meta: { navigation: "elimika" } }),
  route("afya-call", "/afya-call", "content", {
    content: "afya-call",
    parent: "services",
    meta: { navigation: "afya-call" },
  }),
  route("google-play", "/google-play", "content", {
    content: "google-play",
    parent: "services",
    meta: { navigation: "google-play" },
  }),
  route("vodashop", "/vodashop/:region?/:district?", "locator", {
    content: "vodashop",
    locations: "shop",
    query: ["q", "region", "district", "page"],
    parent: "services",
    meta: { navigation: "vodashop" },
  }),
  route("ushauri", "/ushauri", "content", { content: "ushauri", parent: "services", meta: { navigation: "ushauri" } }),
  route("digital-hub", "/digital-hub", "content", {
    content: "digital-hub",
    parent: "services",
    meta: { navigation: "digital-hub" },
  }),
  route("ussd-service", "/ussd-service", "content", {
    content: "ussd-service",
    parent: "services",
    meta: { navigation: "ussd-service" },
  }),
  route("call-status", "/call-status", "content", {
    content: "call-status",
    parent: "services",
    meta: { navigation: "call-status" },
  }),
  route("education-portal", "/education-portal", "content", {
    content: "education-portal",
    parent: "services",
    meta: { navigation: "education-portal" },
  }),
  route("connectu", "/connectu", undefined, {
    redirect: { to: "https://connectu.vodacom.co.tz", permanent: false, newTab: true },
    parent: "services",
    meta: { navigation: "connectu" },
  }),
  route("mpesa", "/mpesa", "content", { content: "mpesa", popups: "mpesa", meta: { navigation: "mpesa" } }),
  route("loans-savings", "/loans-savings", "content", {
    content: "mpesa-loans",
    parent: "mpesa",
    meta: { navigation: "loans-savings" },
  }),
  route("songesha", "/songesha", "content", {
    content: "songesha",
    parent: "loans-savings",
    meta: { navigation: "songesha" },
  }),
  route("chomoka", "/chomoka", "content", {
    content: "chomoka",
    parent: "loans-savings",
    meta: { navigation: "chomoka" },
  }),
  route("mgodi", "/mgodi", "content", { content: "mgodi", parent: "loans-savings", meta: { navigation: "mgodi" } }),
  route("mpawa", "/mpawa", "content", { content: "mpawa", parent: "loans-savings", meta: { navigation: "mpawa" } }),
  route("wakala-wezesha", "/wakala-wezesha", "content", {
    content: "wakala-wezesha",
    parent: "loans-savings",
    meta: { navigation: "wakala-wezesha" },
  }),
  route("wakala-songesha", "/wakala-songesha", "content", {
    content: "wakala-songesha",
    parent: "loans-savings",
    meta: { navigation: "wakala-songesha" },
  }),
  route("merchant-loan", "/merchant-loan", "content", {
    content: "merchant-loan",
    parent: "loans-savings",
    meta: { navigation: "merchant-loan" },
  }),
  route("halal", "/halal", "content", { content: "halal", parent: "loans-savings", meta: { navigation: "halal" } }),
  route("digital-payments", "/digital-payments", "content", {
    content: "mpesa-payments",
    parent: "mpesa",
    meta: { navigation: "digital-payments" },
  }),
  route("mpesa-business-app", "/mpesa-business-app", "content", {
    content: "mpesa-business-app",
    parent: "digital-payments",
    meta: { navigation: "mpesa-business-app" },
  }),
  route("mpesa-app", "/mpesa-app", "content", {
    content: "mpesa-app",
    parent: "digital-payments",
    meta: { navigation: "mpesa-app" },
  }),
  route("visa-cards", "/visa-cards", "content", {
    content: "mpesa-cards",
    parent: "digital-payments",
    meta: { navigation: "visa-cards" },
  }),
  route("linked-cards", "/linked-cards", "content", {
    content: "linked-cards",
    parent: "digital-payments",
    meta: { navigation: "linked-cards" },
  }),
  route("mini-apps", "/mini-apps", "content", {
    content: "mini-apps",
    parent: "digital-payments",
    meta: { navigation: "mini-apps" },
  }),
  route("insurance", "/insurance", "content", {
    content: "mpesa-insurance",
    parent: "mpesa",
    meta: { navigation: "insurance" },
  }),
  route("insurance-loan", "/insurance-loan", "content", {
    content: "insurance-loan",
    parent: "insurance",
    meta: { navigation: "insurance-loan" },
  }),
  route("lipa-kwa-simu", "/lipa-kwa-simu", "content", {
    content: "lipa-kwa-simu",
    parent: "insurance",
    meta: { navigation: "lipa-kwa-simu" },
  }),
  route("business-payment", "/business-payment", "content", {
    content: "business-payment",
    parent: "insurance",
    meta: { navigation: "business-payment" },
  }),
  route("motor-insurance", "/motor-insurance", "content", {
    content: "motor-insurance",
    parent: "insurance",
    meta: { navigation: "motor-insurance" },
  }),
  route("afya-pass", "/afya-pass", "content", {
    content: "afya-pass",
    parent: "insurance",
    meta: { navigation: "afya-pass" },
  }),
  route("faraja-yangu", "/faraja-yangu", "content", {
    content: "faraja-yangu",
    parent: "insurance",
    meta: { navigation: "faraja-yangu" },
  }),
  route("life-insurance", "/life-insurance", "content", {
    content: "life-insurance",
    parent: "insurance",
    meta: { navigation: "life-insurance" },
  }),
  route("group-life", "/group-life", "content", {
    content: "group-life",
    parent: "insurance",
    meta: { navigation: "group-life" },
  }),
  route("financial-services", "/financial-services", "content", {
    content: "financial-services",
    parent: "mpesa",
    meta: { navigation: "financial-services" },
  }),
  route("changisha", "/changisha", "content", {
    content: "changisha",
    parent: "financial-services",
    meta: { navigation: "changisha" },
  }),
  route("mkoba", "/mkoba", "content", {
    content: "mkoba",
    parent: "financial-services",
    meta: { navigation: "mkoba" },
  }),
  route("m-wekeza", "/M-wekeza", "content", {
    content: "m-wekeza",
    parent: "financial-services",
    meta: { navigation: "m-wekeza" },
  }),
  route("international-money-transfer", "/international-money-transfer", "content", {
    content: "mpesa-imt",
    parent: "mpesa",
    meta: { navigation: "international-money-transfer" },
  }),
  route("mpesa-agents", "/mpesa-agents/:region?/:district?", "locator", {
    content: "mpesa-agents",
    locations: "agent",
    query: ["q", "region", "district", "page"],
    parent: "international-money-transfer",
    meta: { navigation: "mpesa-agents" },
  }),
  route("payment-services", "/payment-services", "content", {
    content: "mpesa-collection",
    parent: "mpesa",
    meta: { navigation: "payment-services" },
  }),
  route("business", "/vodacom-business", "content", {
    content: "business-small",
    popups: "business",
    meta: { navigation: "business" },
  }),
  route("business-large-mobile", "/vodacom-business/1/large-mobile", "businessCategory", {
    query: ["services", "page"],
    content: "business-small",
    list: { collection: "vbu-services", pageSize: 100, filter: { field: "categoryId", value: "1" } },
    parent: "business",
    meta: { navigation: "business-large-mobile", isPassThrough: true },
  }),
  route("business-small-mobile", "/vodacom-business/2/small-mobile", "businessCategory", {
    query: ["services", "page"],
    content: "business-small",
    list: { collection: "vbu-services", pageSize: 100, filter: { field: "categoryId", value: "2" } },
    parent: "business",
    meta: { navigation: "business-small-mobile", isPassThrough: true },
  }),
  route("business-iot", "/vodacom-business/5/iot", "businessCategory", {
    query: ["services", "page"],
    content: "business-small",
    list: { collection: "vbu-services", pageSize: 100, filter: { field: "categoryId", value: "5" } },
    parent: "business",
    meta: { navigation: "business-iot", isPassThrough: true },
  }),
  route("business-hosting", "/vodacom-business/6/hosting", "businessCategory", {
    query: ["services", "page"],
    content: "business-small",
    list: { collection: "vbu-services", pageSize: 100, filter: { field: "categoryId", value: "6" } },
    parent: "business",
    meta: { navigation: "business-hosting", isPassThrough: true },
  }),
  route("business-mpesa-business", "/vodacom-business/7/mpesa-business", "businessCategory", {
    query: ["services", "page"],
    content: "business-small",
    list: { collection: "vbu-services", pageSize: 100, filter: { field: "categoryId", value: "7" } },
    parent: "business",
    meta: { navigation: "business-mpesa-business", isPassThrough: true },
  }),
  route("business-fixed-broadband", "/vodacom-business/8/fixed-broadband", "businessCategory", {
    query: ["services", "page"],
    content: "business-small",
    list: { collection: "vbu-services", pageSize: 100, filter: { field: "categoryId", value: "8" } },
    parent: "business",
    meta: { navigation: "business-fixed-broadband", isPassThrough: true },
  }),
  route("business-cloud-security", "/vodacom-business/10/cloud-security", "businessCategory", {
    query: ["services", "page"],
    content: "business-small",
    list: { collection: "vbu-services", pageSize: 100, filter: { field: "categoryId", value: "10" } },
    parent: "business",
    meta: { navigation: "business-cloud-security", isPassThrough: true },
  }),
  route("business-paas-digital-education", "/vodacom-business/11/paas-digital-education", "businessCategory", {
    query: ["services", "page"],
    content: "business-small",
    list: { collection: "vbu-services", pageSize: 100, filter: { field: "categoryId", value: "11" } },
    parent: "business",
    meta: { navigation: "business-paas-digital-education", isPassThrough: true },
  }),
  route("business-paas-digital-farming", "/vodacom-business/14/paas-digital-farming", "businessCategory", {
    query: ["services", "page"],
    content: "business-small",
    list: { collection: "vbu-services", pageSize: 100, filter: { field: "categoryId", value: "14" } },
    parent: "business",
    meta: { navigation: "business-paas-digital-farming", isPassThrough: true },
  }),
  route("business-connectivity", "/vodacom-business/16/connectivity", "businessCategory", {
    query: ["services", "page"],
    content: "business-small",
    list: { collection: "vbu-services", pageSize: 100, filter: { field: "categoryId", value: "16" } },
    parent: "business",
    meta: { navigation: "business-connectivity", isPassThrough: true },
  }),
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
    meta: { navigation: "business-large" },
  }),
  route("business-mid", "/mid", "content", {
    content: "business-mid",
    parent: "business",
    meta: { navigation: "business-mid" },
  }),
  route("supakasi", "/supakasi", "content", {
    content: "business-cars",
    parent: "business",
    meta: { navigation: "supakasi" },
  }),
  route("vbu-lead-automation", "/vbu-lead-automation", "content", {
    content: "business-lead-automation",
    parent: "business",
    meta: { navigation: "vbu-lead-automation" },
  }),
  route("fiber", "/fiber", "content", { content: "fiber", parent: "business", meta: { navigation: "fiber" } }),
  route("devices-specification", "/devicesSpecification", "content", {
    content: "device-specification",
    parent: "business",
    meta: { navigation: "devices-specification" },
  }),
  route("device-ordering", "/device-ordering", "content", {
    content: "device-ordering",
    parent: "business",
    meta: { navigation: "device-ordering" },
  }),
  route("business-faq", "/vodacom-business-faq", "faq", {
    content: "business-faq",
    parent: "business",
    meta: { navigation: "business-faq" },
  }),
  route("business-community", "/vodacombusinesscommunity", undefined, {
    redirect: { to: "/vodacom-business", permanent: true },
    parent: "business",
    meta: { invisible: true },
  }),
  route("investor", "", undefined, { meta: { navigation: "investor", isClickable: false } }),
  route("about-us", "/about-us", "content", {
    content: "about-us",
    parent: "investor",
    meta: { navigation: "about-us" },
  }),
  route("calendar", "/calendar", "content", {
    content: "investor-calendar",
    parent: "investor",
    meta: { navigation: "calendar" },
  }),
  route("executive-team", "/executive-team", "content", {
    content: "investor-executive-team",
    parent: "investor",
    meta: { navigation: "executive-team" },
  }),
  route("board-members", "/board-members", "content", {
    content: "investor-board",
    parent: "investor",
    meta: { navigation: "board-members" },
  }),
  route("board-commitee", "/board-commitee", "content", {
    content: "board-committee",
    parent: "investor",
    meta: { navigation: "board-commitee" },
  }),
  route("announcements", "/announcements", "content", {
    content: "investor-announcements",
    parent: "investor",
    meta: { navigation: "announcements" },
  }),
  route("financials", "/financials", "content", {
    content: "financials",
    parent: "investor",
    meta: { navigation: "financials" },
  }),
  route("annual-general-meeting", "/annual-general-meeting", "content", {
    content: "investor-agm",
    parent: "investor",
    meta: { navigation: "annual-general-meeting" },
  }),
  route("dividends", "/dividends", "content", {
    content: "investor-dividends",
    parent: "investor",
    meta: { navigation: "dividends" },
  }),
  route("news-events", "/news-events", "newsList", {
    content: "news-events",
    query: ["page"],
    list: { collection: "news-updates", pageSize: 9 },
    parent: "investor",
    meta: { navigation: "news-events" },
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
    meta: { navigation: "anniversary" },
  }),
  route("investor-videos", "/investor-videos", undefined, {
    redirect: { to: "https://www.youtube.com/@VodacomTanzania", permanent: false },
    parent: "investor",
    meta: { navigation: "investor-videos" },
  }),
  route("purpose", "", undefined, { meta: { navigation: "purpose", isClickable: false } }),
  route("our-purpose", "/our-purpose", "content", {
    content: "our-purpose",
    parent: "purpose",
    meta: { navigation: "our-purpose" },
  }),
  route("foundation", "/foundation", "newsList", {
    content: "foundation",
    query: ["page"],
    list: { collection: "foundation-updates", pageSize: 30 },
    parent: "purpose",
    meta: { navigation: "foundation" },
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
    meta: { navigation: "what-we-do" },
  }),
  route("foundation-about", "/aboutUs", "content", {
    content: "foundation-about",
    parent: "purpose",
    meta: { navigation: "foundation-about" },
  }),
  route("learning", "/learning", "content", {
    content: "foundation-learn",
    parent: "purpose",
    meta: { navigation: "learning" },
  }),
  route("connected-health", "/connected-health", "content", {
    content: "foundation-health",
    parent: "purpose",
    meta: { navigation: "connected-health" },
  }),
  route("planet", "/planet", "content", {
    content: "foundation-planet",
    parent: "purpose",
    meta: { navigation: "planet" },
  }),
  route("financial-inclusion", "/financial-inclusion", "content", {
    content: "foundation-inclusion",
    parent: "purpose",
    meta: { navigation: "financial-inclusion" },
  }),
  route("education-inclusion", "/education-inclusion", "content", {
    content: "foundation-education",
    parent: "purpose",
    meta: { navigation: "education-inclusion" },
  }),
  route("guidelines", "/guidelines", "content", {
    content: "foundation-funding-guidelines",
    parent: "purpose",
    meta: { navigation: "guidelines" },
  }),
  route("volunteers", "/volunteers", "content", {
    content: "foundation-volunteers",
    parent: "purpose",
    meta: { navigation: "volunteers" },
  }),
  route("our-goal", "/our-goal", "content", {
    content: "foundation-goals",
    parent: "purpose",
    meta: { navigation: "our-goal" },
  }),
  route("help", "", undefined, { meta: { navigation: "help", isClickable: false } }),
  route("customer-service", "/customer-service", "content", {
    content: "customer-service",
    parent: "help",
    meta: { navigation: "customer-service" },
  }),
  route("contact-us", "/contact-us", "content", {
    content: "customer-contact",
    parent: "help",
    meta: { navigation: "contact-us" },
  }),
  route("faq", "/faq/:item?", "faq", { content: "faq", parent: "help", meta: { navigation: "faq" } }),
  route("digital-services-faqs", "/digital-services-faqs", "faq", {
    content: "faq-digital-services",
    parent: "help",
    meta: { navigation: "digital-services-faqs" },
  }),
  route("bundles-faqs", "/bundles-faqs", "faq", {
    content: "faq-bundles",
    parent: "help",
    meta: { navigation: "bundles-faqs" },
  }),
  route("mpesa-faqs", "/M-pesa-faqs", "faq", {
    content: "faq-mpesa",
    parent: "help",
    meta: { navigation: "mpesa-faqs" },
  }),
  route("fraudster", "/fraudster", "fraudster", {
    content: "fraudster",
    all: "trick-mobiles",
    parent: "help",
    meta: { navigation: "fraudster" },
  }),
  route("sim-registration", "/sim-registration", "content", {
    content: "sim-registration",
    parent: "help",
    meta: { navigation: "sim-registration" },
  }),
  route("terms-conditions", "/terms-conditions", "content", {
    content: "terms",
    parent: "help",
    meta: { navigation: "terms-conditions" },
  }),
  route("general-terms", "/general-terms", "content", {
    content: "terms-general",
    parent: "help",
    meta: { navigation: "general-terms" },
  }),
  route("mpesa-terms", "/M-pesa-terms", "content", {
    content: "terms-mobile-money",
    parent: "help",
    meta: { navigation: "mpesa-terms" },
  }),
  route("digital-services-terms", "/digital-services-terms", "content", {
    content: "terms-digital-service",
    parent: "help",
    meta: { navigation: "digital-services-terms" },
  }),
  route("business-terms", "/vodacom-business-terms", "content", {
    content: "terms-business",
    parent: "help",
    meta: { navigation: "business-terms" },
  }),
  route("bundles-terms", "/bundles-terms", "content", {
    content: "terms-bundle",
    parent: "help",
    meta: { navigation: "bundles-terms" },
  }),
  route("devices-terms", "/devices-terms", "content", {
    content: "terms-device",
    parent: "help",
    meta: { navigation: "devices-terms" },
  }),
  route("privacy", "/privacy", "content", { content: "privacy", parent: "help", meta: { navigation: "privacy" } }),
  route("privacy-policy", "/privacy-policy", "content", {
    content: "candidate-privacy",
    parent: "help",
    meta: { navigation: "privacy-policy" },
  }),
  route("bug-bounty", "/bug-bounty", "content", {
    content: "bug-bounty",
    parent: "help",
    meta: { navigation: "bug-bounty" },
  }),
  route("suppliers", "/suppliers", "content", {
    content: "suppliers",
    parent: "help",
    meta: { navigation: "suppliers" },
  }),
  route("shareholder-form", "/shareholder-form", "content", {
    content: "shareholder-form",
    parent: "help",
    meta: { navigation: "shareholder-form" },
  }),
  route("cpm-login", "/cpm-login", "cpmLogin", {
    content: "cpm-login",
    query: ["msisdn"],
    parent: "help",
    meta: { navigation: "cpm-login", noindex: true },
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
