import { useT } from "../i18n/context";
import { useLocation } from "../app/address";
import type { PageProps } from "./props";
import { BusinessCommunityForm } from "../features/forms/BusinessCommunityForm";
import { referenceIn } from "../features/forms/Fields";

/**
 * `/vodacom-business/community`: the business community form; with
 * `?reference=` (where a form posted without JavaScript lands), its receipt.
 */
export default function BusinessCommunityPage({ data }: PageProps) {
  const t = useT();
  const { search } = useLocation();
  return (
    <>
      <h1 className="page-title">{t("forms.business.title")}</h1>
      <p className="lead">{t("forms.business.intro")}</p>
      <BusinessCommunityForm sentBack={data.form} reference={referenceIn(search)} />
    </>
  );
}
