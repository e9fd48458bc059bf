import { useTranslation } from "react-i18next";
import { LocalLink } from "../app/site";

export default function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <section className="not-found">
      <h1>{t("notFound.title")}</h1>
      <p>{t("notFound.text")}</p>
      <LocalLink to="/" className="button">
        {t("notFound.home")}
      </LocalLink>
    </section>
  );
}
