/**
 * The business community form: who to call back, about which
 * business, which services. The names of an influencer, an employee or a
 * merchant are asked only when "where did you hear about us" names one:
 * the stylesheet shows each with its answer, JavaScript or not.
 */
import * as ENDPOINTS from "../../../generated/endpoints";
import { useT } from "../../i18n/context";
import { FIELD_LENGTHS, type FormState } from "../../contract";
import { routes } from "../../routes";
import { LocalLink } from "../../app/site";
import { navLabel } from "../../navigation/menu";
import { Choices, FormHead, FormValuesProvider, Honeypot, Received, Select, TextField } from "./Fields";
import { useFormPost } from "./useFormPost";

const ACTION = ENDPOINTS.businessCommunity;
const SIZES = ["small", "medium", "large"] as const;
const HEARD = [
  "social-media",
  "search-engine",
  "radio-tv",
  "event",
  "influencer",
  "employee",
  "merchant",
  "other",
] as const;
/** The answers of `whereHeard` that name a person, and the field asking for the name. */
const NAMED = { influencer: "influencerName", employee: "employeeName", merchant: "merchantName" } as const;

/** The fields in the order the form asks them. */
const ORDER = [
  "name",
  "email",
  "phone",
  "alternateNumber",
  "businessName",
  "businessSize",
  "industry",
  "services",
  "whereHeard",
  "influencerName",
  "employeeName",
  "merchantName",
];

/** The business categories: the category pages of the route table, by the slug of their address. */
export function businessServices(): { slug: string; nav: string }[] {
  return routes
    .filter((r) => r.page === "businessCategory" && r.meta.navigation)
    .map((r) => ({ slug: r.path.split("/").pop()!, nav: r.meta.navigation! }));
}

export function BusinessCommunityForm({ sentBack, reference }: { sentBack?: FormState; reference: string | null }) {
  const t = useT();
  const post = useFormPost(sentBack?.errors ?? {}, { lists: ["services"] });

  const shown = post.reference ?? reference;
  if (shown) {
    return (
      <Received
        title={t("forms.business.received")}
        text={t("forms.business.receivedText")}
        reference={shown}
        back={
          <LocalLink to="/vodacom-business" className="button">
            {t("forms.business.back")}
          </LocalLink>
        }
      />
    );
  }

  const services = businessServices();
  const label = (name: string): string => {
    const labels: Record<string, string> = {
      name: t("forms.business.name"),
      email: t("forms.business.email"),
      phone: t("forms.business.phone"),
      alternateNumber: t("forms.business.alternateNumber"),
      businessName: t("forms.business.businessName"),
      businessSize: t("forms.business.businessSize"),
      industry: t("forms.business.industry"),
      whereHeard: t("forms.business.whereHeard"),
      services: t("forms.business.services"),
      influencerName: t("forms.business.influencerName"),
      employeeName: t("forms.business.employeeName"),
      merchantName: t("forms.business.merchantName"),
    };
    return labels[name] ?? name;
  };
  const named = (answer: keyof typeof NAMED) => (
    <div className={`when-heard when-${answer}`}>
      <TextField
        name={NAMED[answer]}
        label={t(`forms.business.${NAMED[answer]}`)}
        autoComplete="off"
        maxLength={FIELD_LENGTHS.short}
      />
    </div>
  );

  return (
    <FormValuesProvider value={{ values: sentBack?.values ?? {}, errors: post.errors }}>
      <form method="post" action={ACTION} className="site-form" onSubmit={post.submit} noValidate>
        <FormHead errors={post.errors} order={ORDER} label={label} />
        <fieldset className="form-group">
          <legend>{t("forms.business.you")}</legend>
          <TextField
            name="name"
            label={t("forms.business.name")}
            required
            autoComplete="name"
            maxLength={FIELD_LENGTHS.short}
          />
          <TextField
            name="email"
            type="email"
            label={t("forms.business.email")}
            required
            autoComplete="email"
            maxLength={FIELD_LENGTHS.email}
          />
          <TextField
            name="phone"
            type="tel"
            inputMode="tel"
            label={t("forms.business.phone")}
            hint={t("forms.business.phoneHint")}
            required
            autoComplete="tel"
            maxLength={FIELD_LENGTHS.short}
          />
          <TextField
            name="alternateNumber"
            type="tel"
            inputMode="tel"
            label={t("forms.business.alternateNumber")}
            maxLength={FIELD_LENGTHS.short}
          />
        </fieldset>
        <fieldset className="form-group">
          <legend>{t("forms.business.company")}</legend>
          <TextField
            name="businessName"
            label={t("forms.business.businessName")}
            required
            autoComplete="organization"
            maxLength={FIELD_LENGTHS.line}
          />
          <Choices
            name="businessSize"
            legend={t("forms.business.businessSize")}
            required
            options={SIZES.map((size) => [size, t(`forms.business.sizes.${size}`)])}
          />
          <TextField
            name="industry"
            label={t("forms.business.industry")}
            hint={t("forms.business.industryHint")}
            required
            maxLength={FIELD_LENGTHS.short}
          />
          <Choices
            name="services"
            legend={t("forms.business.services")}
            multiple
            options={services.map(({ slug, nav }) => [slug, navLabel(t, nav)])}
          />
          <Select
            name="whereHeard"
            label={t("forms.business.whereHeard")}
            required
            options={HEARD.map((answer) => [answer, t(`forms.business.heard.${answer}`)])}
          />
          {named("influencer")}
          {named("employee")}
          {named("merchant")}
        </fieldset>
        <Honeypot />
        {post.offline && (
          <p className="form-message form-message-error" role="alert">
            {t("forms.offline")}
          </p>
        )}
        <button type="submit" className="button" disabled={post.busy} aria-busy={post.busy || undefined}>
          {post.busy ? t("forms.sending") : t("forms.business.submit")}
        </button>
      </form>
    </FormValuesProvider>
  );
}
