import { useT } from "../i18n/context";

/** Shown while the next page's data and code load (spec §2). */
export function LoadingOverlay() {
  const t = useT();
  return (
    <div className="loading-overlay" role="progressbar" aria-label={t("loading")}>
      <span className="spinner" />
    </div>
  );
}
