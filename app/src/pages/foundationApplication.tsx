import { useT } from "../i18n/context";
import { useLocation } from "../app/address";
import type { PageProps } from "./props";
import { LocalLink } from "../app/site";
import { FoundationApplicationForm } from "../features/forms/FoundationApplicationForm";
import { referenceIn } from "../features/forms/Fields";

/**
 * `/foundation/apply`: the partnership application; with `?reference=`
 * (where a form posted without JavaScript lands), its receipt.
 */
export default function FoundationApplicationPage({ data }: PageProps) {
  const t = useT();
  const { search } = useLocation();
  return (
    <>
      <h1 className="page-title">{t("forms.foundation.title")}</h1>
      <p className="lead">
        {t("forms.foundation.intro")} <LocalLink to="/guidelines">{t("forms.foundation.guidelines")}</LocalLink>
      </p>
      <FoundationApplicationForm sentBack={data.form} reference={referenceIn(search)} />
    </>
  );
}
