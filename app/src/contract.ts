/**
 * The contract between the Rust server and the app: the content model, the
 * page data that travels to the browser for hydration and client-side
 * navigation (`/_data/<path>`), and what a server render receives and
 * returns. Generated from the Rust types in `server/contract` by `build.rs`
 * (`generated/contract.ts`); the self-service shapes are in
 * `features/account/types.ts`.
 */
export type * from "./generated/contract";
export type * from "./features/account/types";
