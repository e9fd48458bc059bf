/** The bar on a page showing the CMS's drafts (a preview), with its way out. */
import { useT } from "../i18n/context";
import type { PagePreview } from "../contract";

export function PreviewBar({ preview }: { preview: PagePreview }) {
  const t = useT();
  return (
    <div className="preview-bar" role="status">
      {t("preview.label")} — <a href={preview.exit}>{t("preview.exit")}</a>
    </div>
  );
}
