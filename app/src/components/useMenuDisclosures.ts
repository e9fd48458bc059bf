/**
 * The menu's disclosure behaviour (`menuDisclosures.ts`) in the React app;
 * every navigation (menu link, back button, any other link) also closes the
 * menu.
 */
import { useEffect, useRef, type RefObject } from "react";
import { useLocation } from "react-router";
import { attachMenuDisclosures, closeMenus } from "./menuDisclosures";

export function useMenuDisclosures(rootRef: RefObject<HTMLElement | null>) {
  const { pathname, search } = useLocation();
  const shownUrl = useRef(pathname + search);

  useEffect(() => {
    const root = rootRef.current;
    return root ? attachMenuDisclosures(root) : undefined;
  }, [rootRef]);

  useEffect(() => {
    const root = rootRef.current;
    if (!root || shownUrl.current === pathname + search) return;
    shownUrl.current = pathname + search;
    closeMenus(root);
  }, [rootRef, pathname, search]);
}
