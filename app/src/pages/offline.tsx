import { useT } from "../i18n/context";
import { localePath } from "../routes";
import type { PageProps } from "./props";

/**
 * What the service worker answers, offline, for a page it holds no copy of.
 * It keeps this page, in each language it was asked for, and
 * fills in two things when serving it: the retry link's address (the page
 * asked for) and the list of the pages it does hold.
 */
export default function OfflinePage({ data }: PageProps) {
  const t = useT();
  return (
    <section className="offline-page">
      <h1 className="page-title">{t("offline.title")}</h1>
      <p>{t("offline.text")}</p>
      <p>
        <a className="button offline-retry" href={localePath(data.lang, "/offline")}>
          {t("offline.retry")}
        </a>
      </p>
      <h2>{t("offline.saved")}</h2>
      <ul className="offline-pages">
        <li>{t("offline.none")}</li>
      </ul>
    </section>
  );
}
