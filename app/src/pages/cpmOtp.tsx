import { useLocation } from "../app/address";
import type { PageProps } from "./props";
import { PageBody } from "../components/PageBody";
import { CpmCodeForm } from "../features/account/cpm/Cpm";

/** `/cpm-otp?msisdn=…`: the code sent to that number. */
export default function CpmOtpPage({ data }: PageProps) {
  const msisdn = new URLSearchParams(useLocation().search).get("msisdn");
  return <PageBody page={data.content.page} lead={<CpmCodeForm key={msisdn} msisdn={msisdn} />} />;
}
