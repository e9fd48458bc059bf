/**
 * The page's language for components: `LanguageProvider` hands down the
 * language's translator (its i18next instance's `getFixedT`), per render on
 * the server and per island in the browser; `useT()` gives its `t`.
 */
import { createContext, useContext, type ReactNode } from "react";
import type { Lang } from "../routes";
import { translator, type TFunction, type Translator } from "./index";

/** Outside a `LanguageProvider`: English (made when first asked for, once its strings are loaded). */
const TranslatorContext = createContext<Translator | null>(null);

export function useTranslator(): Translator {
  return useContext(TranslatorContext) ?? translator("en");
}

export function useT(): TFunction {
  return useTranslator().t;
}

export function LanguageProvider({ lang, children }: { lang: Lang; children: ReactNode }) {
  return <TranslatorContext.Provider value={translator(lang)}>{children}</TranslatorContext.Provider>;
}
