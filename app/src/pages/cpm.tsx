import type { PageProps } from "./props";
import { PageBody } from "../components/PageBody";
import { Permissions } from "../features/account/cpm/Cpm";

/** `/customer-permission-management` (the server lets only a CPM session in): the permission switches first. */
export default function CpmPage({ data }: PageProps) {
  return <PageBody page={data.content.page} lead={data.cpm && <Permissions cpm={data.cpm} />} />;
}
