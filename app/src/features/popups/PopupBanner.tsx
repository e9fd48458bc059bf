/**
 * The route's newest popup as a dismissible banner at the top of the page.
 * The server always renders it; a dismissal is remembered for the browser
 * session and applied after hydration, so the first render matches the HTML.
 */
import { useEffect, useState } from "react";
import { useT } from "../../i18n/context";
import type { Popup } from "../../contract";
import { LocalLink } from "../../app/site";

const storageKey = (popup: Popup) => `popupDismissed:${popup.id}`;

function wasDismissed(popup: Popup): boolean {
  try {
    return sessionStorage.getItem(storageKey(popup)) === "1";
  } catch {
    return false; // storage blocked: show it
  }
}

export function PopupBanner({ popups }: { popups: Popup[] | undefined }) {
  const newest = popups?.[0];
  // A new popup starts undismissed.
  return newest ? <Banner key={newest.id} popup={newest} /> : null;
}

function Banner({ popup }: { popup: Popup }) {
  const t = useT();
  const [dismissed, setDismissed] = useState(false);
  useEffect(() => setDismissed(wasDismissed(popup)), [popup]);
  if (dismissed) return null;
  const dismiss = () => {
    setDismissed(true);
    try {
      sessionStorage.setItem(storageKey(popup), "1");
    } catch {
      // not remembered; it is gone for this page view
    }
  };
  return (
    <aside className="popup-banner" aria-label={t("popup.label")}>
      {popup.image && <img src={popup.image.url} alt={popup.image.alternativeText ?? ""} width={popup.image.width ?? 64} height={popup.image.height ?? 64} />}
      <div className="popup-text">
        <p className="popup-title">{popup.title}</p>
        {popup.text && <p>{popup.text}</p>}
        {popup.cta && (
          <LocalLink to={popup.cta.url} className="popup-cta">
            {popup.cta.label}
          </LocalLink>
        )}
      </div>
      <button type="button" className="popup-close" aria-label={t("popup.dismiss")} onClick={dismiss}>
        <span aria-hidden="true">×</span>
      </button>
    </aside>
  );
}
