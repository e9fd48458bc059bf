/**
 * Client-side navigation: on every location change the next page's data
 * comes from `/_data/<path>` and its code from its chunk, while a loading
 * overlay shows; then scroll to top unless a saved position exists (spec §2).
 */
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { useSetLanguage, useT } from "../i18n/context";
import { useLocation, useNavigate, useNavigationType } from "react-router";
import type { PageData, Subscriber } from "../contract";
import type { AccountActions } from "../features/account/AccountContext";
import { useNotify } from "../features/notifications/Toasts";
import { loadPage, type PageModule } from "../pages";
import { App, type Shown } from "./App";
import { pageTitle } from "./head";
import { useLinkNavigation } from "./linkNavigation";
import { isExternal } from "./site";
import { SCROLL_KEY, savePosition, savedPositions } from "../navigation/scrollPositions";

const FIRST_VISIT_KEY = "firstVisit";

/** What `/_data/<path>` answers: the page's data, or where a redirect route sends the visitor. */
export type DataAnswer = PageData | { redirect: string };

/**
 * The data of the page at `url`. `cache: "no-cache"` makes the browser ask
 * the server even when it holds a copy: once a visitor has signed in, an
 * anonymous copy kept from before (pages are public and revalidated in the
 * background) must not be shown.
 */
export async function fetchPageData(url: string, cache: RequestCache = "default"): Promise<DataAnswer> {
  const response = await fetch(`/_data${url}`, { headers: { accept: "application/json" }, cache });
  const type = response.headers.get("content-type") || "";
  // A 404 still carries the not-found page's data.
  if (!type.includes("application/json") || (!response.ok && response.status !== 404)) {
    throw new Error(`page data ${url}: HTTP ${response.status}`);
  }
  return response.json();
}

/** The `detail` of a `preload-error` event. */
export interface PreloadError {
  error: unknown;
  /** The address being navigated to. */
  url: string;
}

declare global {
  interface WindowEventMap {
    "preload-error": CustomEvent<PreloadError>;
  }
}

/**
 * A page's code for a navigation to `url`. A chunk that fails to load (spec
 * §8; typically a new deploy removed it) raises a cancelable `preload-error`
 * event on `window`; unless a listener calls `preventDefault`, the error is
 * re-thrown. A handled failure never settles: the listener takes over.
 */
export async function loadPageChunk(kind: string, url: string): Promise<PageModule> {
  try {
    return await loadPage(kind);
  } catch (error) {
    const event = new CustomEvent<PreloadError>("preload-error", { cancelable: true, detail: { error, url } });
    window.dispatchEvent(event);
    if (!event.defaultPrevented) throw error;
    return new Promise<never>(() => {});
  }
}

export function ClientApp({ initial }: { initial: Shown }) {
  useLinkNavigation();
  const location = useLocation();
  const navigationType = useNavigationType();
  const navigate = useNavigate();
  const notify = useNotify();
  const t = useT();
  const setLanguage = useSetLanguage();
  const [shown, setShown] = useState(initial);
  const [loading, setLoading] = useState(false);
  const shownUrl = useRef(location.pathname + location.search);
  const shownKey = useRef(location.key);
  const scrollTarget = useRef<number | null>(null);
  /** Signed in (or was, in this tab): page data must come from the server. */
  const personal = useRef(Boolean(initial.data.subscriber || initial.data.cpm));

  useEffect(() => {
    document.documentElement.dataset.ready = "";
    history.scrollRestoration = "manual";
    if (!sessionStorage.getItem(SCROLL_KEY)) sessionStorage.setItem(FIRST_VISIT_KEY, "1");
  }, []);

  useEffect(() => {
    const url = location.pathname + location.search;
    if (url === shownUrl.current) {
      shownKey.current = location.key;
      setLoading(false); // e.g. a redirect back to the page shown, or a page `refresh` showed already
      return;
    }
    savePosition(shownKey.current, window.scrollY);
    sessionStorage.removeItem(FIRST_VISIT_KEY); // a prior route exists now
    let cancelled = false;
    setLoading(true);
    fetchPageData(url, personal.current ? "no-cache" : "default")
      .then(async (answer) => {
        if (cancelled) return;
        if ("redirect" in answer) {
          // A redirect route: another site in full, or a path of this one in its place.
          if (isExternal(answer.redirect)) window.location.assign(answer.redirect);
          else navigate(answer.redirect, { replace: true });
          return;
        }
        const data = answer;
        const { default: Page } = await loadPageChunk(data.route.page, url);
        if (cancelled) return;
        setLanguage(data.lang);
        shownUrl.current = url;
        shownKey.current = location.key;
        const saved = navigationType === "POP" ? savedPositions()[location.key] : undefined;
        scrollTarget.current = saved ?? 0;
        personal.current ||= Boolean(data.subscriber || data.cpm);
        setShown({ data, Page });
      })
      .catch((error) => {
        console.error(error);
        if (!cancelled) notify({ type: "warning", title: t("notify.error"), text: t("notify.failedToLoadContent") });
      })
      .finally(() => {
        if (!cancelled) setLoading(false);
      });
    return () => {
      cancelled = true;
    };
  }, [location, navigationType, navigate, setLanguage, notify, t]);

  // What the self-service screens do with the page: after signing in or
  // out its data is fetched again (or the next page's, shown at once and
  // navigated to); a purchase replaces the balances shown.
  const refresh = useCallback(
    async (to?: string) => {
      const url = to ?? shownUrl.current;
      personal.current = true;
      setLoading(true);
      try {
        const answer = await fetchPageData(url, "no-cache");
        if ("redirect" in answer) {
          navigate(answer.redirect);
          return;
        }
        const { default: Page } = await loadPageChunk(answer.route.page, url);
        setLanguage(answer.lang);
        if (url !== shownUrl.current) scrollTarget.current = 0;
        shownUrl.current = url;
        setShown({ data: answer, Page });
        if (url !== window.location.pathname + window.location.search) navigate(url);
      } catch (error) {
        // The session changed either way: a full load shows the truth.
        console.error(error);
        window.location.assign(url);
      } finally {
        setLoading(false);
      }
    },
    [navigate, setLanguage],
  );
  const setSubscriber = useCallback((subscriber: Subscriber | null) => setShown((current) => ({ ...current, data: { ...current.data, subscriber } })), []);
  const account = useMemo<AccountActions>(() => ({ refresh, setSubscriber }), [refresh, setSubscriber]);

  useLayoutEffect(() => {
    document.documentElement.lang = shown.data.lang;
    document.title = pageTitle(shown.data, t);
    if (scrollTarget.current !== null) {
      window.scrollTo(0, scrollTarget.current);
      scrollTarget.current = null;
    }
  }, [shown, t]);

  return <App shown={shown} loading={loading} account={account} />;
}
