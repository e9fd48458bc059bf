/**
 * The page's language for components: `useT()` gives its `t`, fixed per
 * render on the server and per island in the browser (`LanguageProvider`).
 */
import { createContext, useContext, type ReactNode } from "react";
import type { Lang } from "../routes";
import { translator, type TFunction, type Translator } from "./index";

const TranslatorContext = createContext<Translator>(translator("en"));

export function useTranslator(): Translator {
  return useContext(TranslatorContext);
}

export function useT(): TFunction {
  return useContext(TranslatorContext).t;
}

export function LanguageProvider({ lang, children }: { lang: Lang; children: ReactNode }) {
  return <TranslatorContext.Provider value={translator(lang)}>{children}</TranslatorContext.Provider>;
}
