/** The language picker of the page headers: each language by its own name; choosing one remembers it and reloads the page. */
import { h } from '../ui/dom.js';
import { saveLocale } from '../ui/prefs.js';
import { isLocale, LOCALE_NAMES, LOCALES, locale, S } from './strings.js';

/** A `<select id="language">` showing the language in use. */
export function languageSelect(): HTMLElement {
  const select = h(
    'select',
    {
      id: 'language',
      'aria-label': S.language,
      title: S.language,
      onchange: () => {
        if (!isLocale(select.value) || select.value === locale) return;
        saveLocale(select.value);
        location.reload();
      },
    },
    ...LOCALES.map((l) => h('option', { value: l, lang: l, selected: l === locale }, LOCALE_NAMES[l])),
  );
  return h('label', { class: 'language' }, select);
}
