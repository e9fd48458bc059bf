/**
 * Client-side navigation of the React app for plain anchors (see
 * `clientTarget`): same-site clicks go through the router.
 */
import { useEffect } from "react";
import { useNavigate } from "react-router";
import { clientTarget } from "./links";

export { clientTarget };
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
