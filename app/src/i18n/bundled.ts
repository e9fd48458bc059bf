/**
 * Both languages' strings, loaded: the server's bundle renders either
 * language (`entry-server.tsx` imports this first), and so do the unit
 * tests (`npm test` imports it before them). An island loads its visitor's
 * language alone (`loadStrings` in `./index`).
 */
import en from "./en";
import { addStrings } from "./index";
import sw from "./sw";

addStrings("en", en);
addStrings("sw", sw);

export const resources = { en, sw };
