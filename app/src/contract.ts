/**
 * The contract between the Rust server and the app: the content model, the
 * page data that travels to the browser for hydration and client-side
 * navigation (`/_data/<path>`), what a server render receives and returns,
 * the self-service data, what each API endpoint answers, and the route
 * table's shape. Generated from the Rust types in `server/contract` by
 * `build.rs` (`app/generated/contract.ts`).
 */
export type * from "../generated/contract";
// The values it holds: the lists a form's answers are chosen from, and what
// the server and the page's scripts agree on besides the types (the headers
// and fields of a post, the fields' lengths: `server/contract/src/protocol.rs`;
// the API's addresses are `generated/endpoints.ts`, imported as a namespace
// so that a script bundles only the addresses it names).
export { FIELD_LENGTHS, ORGANISATION_TYPES, PROTOCOL, REGIONS, RELOAD_AFTER_MS } from "../generated/contract";
