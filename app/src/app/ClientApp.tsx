/**
 * Client-side navigation: on every location change the next page's data
 * comes from `/_data/<path>` and its code from its chunk, while a loading
 * overlay shows; then scroll to top unless a saved position exists (spec §2).
 */
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigationType } from "react-router";
import type { PageData } from "../contract";
import { useNotify } from "../features/notifications/Toasts";
import { loadPage } from "../pages";
import { App, type Shown } from "./App";
import { pageTitle } from "./head";

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

export async function fetchPageData(url: string): Promise<PageData> {
  const response = await fetch(`/_data${url}`, { headers: { accept: "application/json" } });
  const type = response.headers.get("content-type") || "";
  // A 404 still carries the not-found page's data.
  if (!type.includes("application/json") || (!response.ok && response.status !== 404)) {
    throw new Error(`page data ${url}: HTTP ${response.status}`);
  }
  return response.json();
}

export function ClientApp({ initial }: { initial: Shown }) {
  const location = useLocation();
  const navigationType = useNavigationType();
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
    if (url === shownUrl.current) return;
    savePosition(shownKey.current, window.scrollY);
    sessionStorage.removeItem(FIRST_VISIT_KEY); // a prior route exists now
    let cancelled = false;
    setLoading(true);
    fetchPageData(url)
      .then(async (data) => {
        const { default: Page } = await loadPage(data.route.page);
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
  }, [location, navigationType, i18n, notify, t]);

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
