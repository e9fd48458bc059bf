/**
 * Client-side navigation: on every location change the next page's data
 * comes from `/_data/<path>` and its code from its chunk, while a loading
 * overlay shows; then scroll to top unless a saved position exists (spec §2).
 */
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate, useNavigationType } from "react-router";
import type { PageData } from "../contract";
import { useNotify } from "../features/notifications/Toasts";
import { loadPage, type PageModule } from "../pages";
import { App, type Shown } from "./App";
import { pageTitle } from "./head";
import { isExternal } from "./site";

const SCROLL_KEY = "scrollPositions";
const FIRST_VISIT_KEY = "firstVisit";

function savedPositions(): Record<string, number> {
  try {
    return JSON.parse(sessionStorage.getItem(SCROLL_KEY) || "{}");
  } catch {
    return {};
  }
}

function savePosition(key: string, y: number) {
  const positions = savedPositions();
  positions[key] = y;
  sessionStorage.setItem(SCROLL_KEY, JSON.stringify(positions));
}

/** What `/_data/<path>` answers: the page's data, or where a redirect route sends the visitor. */
export type DataAnswer = PageData | { redirect: string };

export async function fetchPageData(url: string): Promise<DataAnswer> {
  const response = await fetch(`/_data${url}`, { headers: { accept: "application/json" } });
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
  const location = useLocation();
  const navigationType = useNavigationType();
  const navigate = useNavigate();
  const notify = useNotify();
  const { t, i18n } = useTranslation();
  const [shown, setShown] = useState(initial);
  const [loading, setLoading] = useState(false);
  const shownUrl = useRef(location.pathname + location.search);
  const shownKey = useRef(location.key);
  const scrollTarget = useRef<number | null>(null);

  useEffect(() => {
    history.scrollRestoration = "manual";
    if (!sessionStorage.getItem(SCROLL_KEY)) sessionStorage.setItem(FIRST_VISIT_KEY, "1");
  }, []);

  useEffect(() => {
    const url = location.pathname + location.search;
    if (url === shownUrl.current) {
      setLoading(false); // e.g. a redirect back to the page shown
      return;
    }
    savePosition(shownKey.current, window.scrollY);
    sessionStorage.removeItem(FIRST_VISIT_KEY); // a prior route exists now
    let cancelled = false;
    setLoading(true);
    fetchPageData(url)
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
        if (i18n.language !== data.lang) await i18n.changeLanguage(data.lang);
        shownUrl.current = url;
        shownKey.current = location.key;
        const saved = navigationType === "POP" ? savedPositions()[location.key] : undefined;
        scrollTarget.current = saved ?? 0;
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
  }, [location, navigationType, navigate, i18n, notify, t]);

  useLayoutEffect(() => {
    document.documentElement.lang = shown.data.lang;
    document.title = pageTitle(shown.data, t);
    if (scrollTarget.current !== null) {
      window.scrollTo(0, scrollTarget.current);
      scrollTarget.current = null;
    }
  }, [shown, t]);

  return <App shown={shown} loading={loading} />;
}
