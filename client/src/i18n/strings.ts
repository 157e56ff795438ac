/**
 * The strings in use, and the choice of language. English (`en.ts`) is bundled; every other
 * language is a chunk of its own, loaded with `import()` by `setLocale` before the page renders.
 * Modules read the strings through the live bindings `S` and `P` at render time, so a page
 * rendered after `setLocale` speaks the new language (the header's picker reloads the page).
 * `P`, the home, rules and replay pages' own strings, is set by `loadPageStrings` before one of
 * those pages renders: English's are a chunk of their own (`enPages.ts`), which the game page
 * does not load.
 */
import { savedLocale } from '../ui/prefs.js';
import { type CoreStrings, en, type Strings } from './en.js';
import type { PageStrings } from './enPages.js';

export { type CoreStrings, en, type PageStrings, type Strings };

/** The languages of the interface, English (the reference) first. */
export const LOCALES = ['en', 'fr', 'es', 'ru', 'ko', 'ar'] as const;
/** One language of the interface. */
export type Locale = (typeof LOCALES)[number];

/** Each language's name in its own language, for the picker. */
export const LOCALE_NAMES: Record<Locale, string> = {
  en: 'English',
  fr: 'Français',
  es: 'Español',
  ru: 'Русский',
  ko: '한국어',
  ar: 'العربية',
};

/** The languages written right to left. */
const RTL: ReadonlySet<Locale> = new Set<Locale>(['ar']);

/** The lazily loaded languages: one Vite chunk each. */
const LOADERS: Record<Exclude<Locale, 'en'>, () => Promise<Strings>> = {
  fr: () => import('./fr.js').then((m) => m.fr),
  es: () => import('./es.js').then((m) => m.es),
  ru: () => import('./ru.js').then((m) => m.ru),
  ko: () => import('./ko.js').then((m) => m.ko),
  ar: () => import('./ar.js').then((m) => m.ar),
};

/** English's strings of the home, rules and replay pages. */
const loadEnPages = (): Promise<PageStrings> => import('./enPages.js').then((m) => m.enPages);

/** The strings of every page, in use (a live binding: read it when rendering, not at module load). */
export let S: CoreStrings = en;
/** The home, rules and replay pages' strings in use, once `loadPageStrings` has run (a live binding). */
export let P: PageStrings;
/** The language in use. */
export let locale: Locale = 'en';

/** Whether `tag` names a language of the interface. */
export function isLocale(tag: string): tag is Locale {
  return (LOCALES as readonly string[]).includes(tag);
}

/** The first of the browser's languages (`navigator.languages`, "fr-CA", "ko") that the interface speaks; else English. */
export function pickLocale(languages: readonly string[]): Locale {
  for (const tag of languages) {
    const base = tag.toLowerCase().split(/[-_]/)[0];
    if (isLocale(base)) return base;
  }
  return 'en';
}

/** All the strings of `l` (loading its chunk; for English, the pages' chunk). */
export async function loadStrings(l: Locale): Promise<Strings> {
  return l === 'en' ? { ...en, ...(await loadEnPages()) } : LOADERS[l]();
}

/** The writing direction of `l`. */
export function dirOf(l: Locale): 'ltr' | 'rtl' {
  return RTL.has(l) ? 'rtl' : 'ltr';
}

/** Use `l` from now on: its strings of every page, and `<html lang dir>`. */
export async function setLocale(l: Locale): Promise<void> {
  const strings = l === 'en' ? en : await LOADERS[l]();
  S = strings;
  locale = l;
  if (typeof document !== 'undefined') {
    document.documentElement.lang = l;
    document.documentElement.dir = dirOf(l);
  }
}

/** Set `P` in the language in use: before rendering the home, rules or replay page. */
export async function loadPageStrings(): Promise<void> {
  P = await loadStrings(locale);
}

/** The language chosen in the header before, else the browser's. */
export function preferredLocale(): Locale {
  const saved = savedLocale();
  if (saved && isLocale(saved)) return saved;
  return pickLocale(typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]));
}

/** Set the preferred language before the first render (English when its chunk cannot load). */
export async function initLocale(): Promise<void> {
  try {
    await setLocale(preferredLocale());
  } catch {
    await setLocale('en');
  }
}

/** The server names a spectator who chose no name "Spectator N" (docs/PROTOCOL.md); shown in the viewer's language. */
const DEFAULT_SPECTATOR = /^Spectator (\d{1,6})$/;

/** A member's name as shown: a spectator's default name in the viewer's language, any other as it is. */
export function displayName(name: string): string {
  const m = DEFAULT_SPECTATOR.exec(name);
  return m ? S.press.spectatorN(Number(m[1])) : name;
}
