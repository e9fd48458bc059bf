import type { PageProps } from "./props";
import { PageBody } from "../components/PageBody";
import { CpmNumberForm } from "../features/account/cpm/Cpm";

/** `/cpm-login`: the number whose permissions are managed, right under the title. */
export default function CpmLoginPage({ data }: PageProps) {
  return <PageBody page={data.content.page} lead={<CpmNumberForm />} />;
}
