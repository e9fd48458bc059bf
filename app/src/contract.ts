/**
 * The contract between the Rust server and the app: the content model, the
 * page data that travels to the browser for hydration and client-side
 * navigation (`/_data/<path>`), what a server render receives and returns,
 * the self-service data, what each API endpoint answers, and the route
 * table's shape. Generated from the Rust types in `server/contract` by
 * `build.rs` (`app/generated/contract.ts`).
 */
export type * from "../generated/contract";
// The values it holds: the lists a form's answers are chosen from.
export { ORGANISATION_TYPES, REGIONS } from "../generated/contract";
