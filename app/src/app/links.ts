/**
 * Which clicks on plain anchors stay in the page (React-free: the
 * enhancement script of content pages and the React app share it). A left
 * click without modifier keys on a link to a page of this site is handled
 * in the page instead of reloading. Links that open elsewhere (`target`,
 * `download`), other origins, in-page anchors and server endpoints (`/api/`,
 * `/sandbox/`, files) keep the browser's behaviour. Handlers that called
 * `preventDefault` first (the language switch, purchase buttons) win.
 */

const SERVER_PATHS = /^\/(api|sandbox|_data|assets|static)\/|^\/(sitemap\.xml|robots\.txt|sw\.js)$/;

/** The in-site address an anchor click should go to, or null to let the browser act. */
export function clientTarget(event: MouseEvent, current: Location): string | null {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
    return null;
  const anchor = event.target instanceof Element ? event.target.closest("a") : null;
  if (!anchor || !anchor.hasAttribute("href") || anchor.hasAttribute("download")) return null;
  if (anchor.target && anchor.target !== "_self") return null;
  const url = new URL(anchor.href, current.href);
  if (url.origin !== current.origin || SERVER_PATHS.test(url.pathname)) return null;
  if (url.hash && url.pathname === current.pathname && url.search === current.search) return null;
  return url.pathname + url.search + url.hash;
}

/** Remembers the visitor's choice for the next visit to `/`, in the cookie `lang` the server sets for `?lang=` too. */
export function rememberLang(lang: string) {
  const secure = location.protocol === "https:" ? "; Secure" : "";
  document.cookie = `lang=${lang}; Path=/; Max-Age=31536000; SameSite=Lax${secure}`;
}
