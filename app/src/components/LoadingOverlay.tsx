import { useTranslation } from "react-i18next";

/** Shown while the next page's data and code load (spec §2). */
export function LoadingOverlay() {
  const { t } = useTranslation();
  return (
    <div className="loading-overlay" role="progressbar" aria-label={t("loading")}>
      <span className="spinner" />
    </div>
  );
}
