/**
 * The route's newest popup as a dismissible banner at the top of the page.
 * The server always renders it; a dismissal is remembered for the browser
 * session and applied after hydration, so the first render matches the HTML.
 * Its close is a link to the banner itself, which CSS hides once it is the
 * page's target (`:target`): without JavaScript it closes for the page
 * shown; with it the dismissal is remembered too.
 */
import { LinkButton } from "../../components/LinkButton";
import { useEffect, useState, type MouseEvent } from "react";
import { useT } from "../../i18n/context";
import type { Popup } from "../../contract";
import { Picture } from "../../components/Picture";
import { rememberDismissal, wasDismissed } from "./dismissal";

export function PopupBanner({ popups }: { popups: Popup[] | undefined }) {
  const newest = popups?.[0];
  // A new popup starts undismissed.
  return newest ? <Banner key={newest.id} popup={newest} /> : null;
}

/** The banner's own address, the same whatever the CMS numbers the popup. */
const ANCHOR = "announcement";

function Banner({ popup }: { popup: Popup }) {
  const t = useT();
  const [dismissed, setDismissed] = useState(false);
  useEffect(() => setDismissed(wasDismissed(popup.id)), [popup]);
  if (dismissed) return null;
  const dismiss = (event: MouseEvent) => {
    event.preventDefault();
    setDismissed(true);
    rememberDismissal(popup.id);
  };
  return (
    <aside className="popup-banner" id={ANCHOR} aria-label={t("popup.label")} data-popup={popup.id}>
      {popup.image && <Picture image={popup.image} slot="icon" fallbackSize={[64, 64]} />}
      <div className="popup-text">
        <p className="popup-title">{popup.title}</p>
        {popup.text && <p>{popup.text}</p>}
        <LinkButton link={popup.cta} className="popup-cta" />
      </div>
      <a href={`#${ANCHOR}`} className="popup-close" aria-label={t("popup.dismiss")} onClick={dismiss}>
        <span aria-hidden="true">×</span>
      </a>
    </aside>
  );
}
