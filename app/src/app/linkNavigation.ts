/**
 * Client-side navigation for plain anchors: a left click without modifier
 * keys on a link to a page of this site navigates through the router instead
 * of reloading. Links that open elsewhere (`target`, `download`), other
 * origins, in-page anchors and server endpoints (`/api/`, `/sandbox/`, files)
 * keep the browser's behaviour. Handlers that called `preventDefault` first
 * (the language switch, purchase buttons) win: React's run before this one.
 */
import { useEffect } from "react";
import { useNavigate } from "react-router";

const SERVER_PATHS = /^\/(api|sandbox|_data|assets|static)\/|^\/(sitemap\.xml|robots\.txt|sw\.js)$/;

/** The in-app address an anchor click should go to, or null to let the browser act. */
export function clientTarget(event: MouseEvent, current: Location): string | null {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return null;
  const anchor = event.target instanceof Element ? event.target.closest("a") : null;
  if (!anchor || !anchor.hasAttribute("href") || anchor.hasAttribute("download")) return null;
  if (anchor.target && anchor.target !== "_self") return null;
  const url = new URL(anchor.href, current.href);
  if (url.origin !== current.origin || SERVER_PATHS.test(url.pathname)) return null;
  if (url.hash && url.pathname === current.pathname && url.search === current.search) return null;
  return url.pathname + url.search + url.hash;
}

export function useLinkNavigation(): void {
  const navigate = useNavigate();
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      const target = clientTarget(event, window.location);
      if (target === null) return;
      event.preventDefault();
      navigate(target);
    };
    document.addEventListener("click", onClick);
    return () => document.removeEventListener("click", onClick);
  }, [navigate]);
}
