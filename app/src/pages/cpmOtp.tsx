export { default } from "./content";
