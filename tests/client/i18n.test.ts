/**
 * The six languages without a browser: every language has every key of English, deep, with the
 * same type (a function where English has a function, with as many parameters), and no key
 * English lacks; every string function of every language gives a whole sentence for arguments
 * English accepts; plurals, lists and relative times come from `Intl`; the browser's languages
 * pick the interface language; a spectator's default name is shown in the viewer's language;
 * the home, rules and replay pages' strings come from their own English chunk or the language's file.
 */
import { ar } from '../../client/src/i18n/ar.js';
import { en as enCore, type Strings } from '../../client/src/i18n/en.js';
import { enPages } from '../../client/src/i18n/enPages.js';
import { es } from '../../client/src/i18n/es.js';
import { formatters } from '../../client/src/i18n/format.js';
import { fr } from '../../client/src/i18n/fr.js';
import { ko } from '../../client/src/i18n/ko.js';
import { ru } from '../../client/src/i18n/ru.js';
import { dirOf, displayName, LOCALE_NAMES, LOCALES, loadPageStrings, loadStrings, P, pickLocale, S, setLocale } from '../../client/src/i18n/strings.js';

const TRANSLATIONS: Record<string, Strings> = { fr, es, ru, ko, ar };
/** All of English, the reference: the strings of every page and the other pages' chunk. */
const en: Strings = { ...enCore, ...enPages };

type Tree = Record<string, unknown>;
const isTree = (v: unknown): v is Tree => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every leaf of a strings tree: its path and value. */
function leaves(tree: Tree, prefix = ''): [string, unknown][] {
  return Object.entries(tree).flatMap(([k, v]) => (isTree(v) ? leaves(v, `${prefix}${k}.`) : [[`${prefix}${k}`, v] as [string, unknown]]));
}

/** The differences of shape between `other` and `ref`: missing, extra and mistyped keys, deep. */
function shapeDiff(ref: Tree, other: Tree, prefix = ''): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(ref)) {
    const path = `${prefix}${k}`;
    if (!(k in other)) {
      out.push(`missing ${path}`);
      continue;
    }
    const o = other[k];
    if (isTree(v)) {
      if (isTree(o)) out.push(...shapeDiff(v, o, `${path}.`));
      else out.push(`${path}: ${typeof o} instead of an object`);
    } else if (typeof o !== typeof v) out.push(`${path}: ${typeof o} instead of ${typeof v}`);
    else if (typeof v === 'function' && (o as (...a: unknown[]) => unknown).length !== v.length) {
      out.push(`${path}: ${(o as (...a: unknown[]) => unknown).length} parameters instead of ${v.length}`);
    } else if (typeof v === 'string' && (o as string).trim() === '' && v.trim() !== '') out.push(`${path}: empty`);
  }
  for (const k of Object.keys(other)) if (!(k in ref)) out.push(`extra ${prefix}${k}`);
  return out;
}

/** Argument values to try, in order: a colour, a count, a kind, a cause, a draw reason, a flag, names, nothing. */
const POOL: readonly unknown[] = ['R', 3, 'chief', 'killed', 'agreement', true, ['Ada', 'Bo', 'Cy'], null];
const BROKEN = /undefined|NaN|\[object|^\s*$/;

/** The first arguments from POOL for which English gives a whole sentence. */
function argsFor(fn: (...a: unknown[]) => unknown): unknown[] | null {
  const n = fn.length;
  const idx = new Array<number>(n).fill(0);
  for (;;) {
    const args = idx.map((i) => POOL[i]);
    try {
      const out = fn(...args);
      if (typeof out === 'string' && !BROKEN.test(out)) return args;
    } catch {
      /* try the next arguments */
    }
    let p = n - 1;
    while (p >= 0 && ++idx[p] === POOL.length) idx[p--] = 0;
    if (p < 0) return null;
  }
}

const cases = Object.entries(TRANSLATIONS);

test.each(cases)('%s has every key of English, with the same types, and no other', (_name, strings) => {
  expect(shapeDiff(en as unknown as Tree, strings as unknown as Tree)).toEqual([]);
});

test('the shape check catches a missing key, a wrong type and a wrong arity, deep', () => {
  const broken = { ...fr, game: { ...fr.game, start: undefined, yes: () => 'x' }, press: { ...fr.press, errors: { ...fr.press.errors, bad_text: 3 } } };
  delete (broken.game as Tree).start;
  const diff = shapeDiff(en as unknown as Tree, broken as unknown as Tree);
  expect(diff).toEqual(
    expect.arrayContaining(['missing game.start', 'game.yes: function instead of string', 'press.errors.bad_text: number instead of string']),
  );
  expect(shapeDiff(en as unknown as Tree, { ...fr, time: { ...fr.time, ago: () => '' } } as unknown as Tree)).toEqual(['time.ago: 0 parameters instead of 1']);
});

test.each(cases)('every string function of %s gives a whole sentence where English does', (_name, strings) => {
  const theirs = new Map(leaves(strings as unknown as Tree));
  let checked = 0;
  for (const [path, fn] of leaves(en as unknown as Tree)) {
    if (typeof fn !== 'function') continue;
    const args = argsFor(fn as (...a: unknown[]) => unknown);
    if (!args) continue;
    const out = (theirs.get(path) as (...a: unknown[]) => unknown)(...args);
    expect([path, typeof out === 'string' && !BROKEN.test(out)]).toEqual([path, true]);
    checked++;
  }
  expect(checked).toBeGreaterThan(100);
});

test('the translations are translations: a few known sentences', () => {
  expect(fr.kind('necromobile')).toBe('Nécromobile');
  expect(fr.pieceLabel('B', 'militant', true)).toBe('militant bleu');
  expect(fr.table.frozenLabel('G')).toBe('Armée verte, gelée');
  expect(es.game.start).toBe('Empezar la partida');
  expect(ru.game.start).toBe('Начать партию');
  expect(ko.game.start).toBe('대국 시작');
  expect(ar.game.start).toBe('ابدأ المباراة');
  for (const strings of Object.values(TRANSLATIONS)) expect(strings.rulesPage.intro).not.toBe(en.rulesPage.intro);
});

test('plurals follow each language’s rules (Intl.PluralRules)', () => {
  expect([1, 2].map(en.game.spectators)).toEqual(['1 spectator', '2 spectators']);
  expect([0, 1, 2].map(fr.game.spectators)).toEqual(['0 spectateur', '1 spectateur', '2 spectateurs']);
  expect([1, 3, 5, 21, 22, 25].map(ru.game.spectators)).toEqual(['1 зритель', '3 зрителя', '5 зрителей', '21 зритель', '22 зрителя', '25 зрителей']);
  expect([0, 1, 2, 3, 11, 100].map(ar.replay.moves)).toEqual(['لا نقلات', 'نقلة واحدة', 'نقلتان', '3 نقلات', '11 نقلة', '100 نقلة']);
  expect(ko.press.unread(4)).toBe('읽지 않은 메시지 4개');
  expect(es.pacts.rounds(1)).toBe('1 ronda');
  expect(es.pacts.rounds(null)).toBe('sin límite de tiempo');
  const f = formatters('ru');
  expect(f.plural(1.5, { one: '# ход', few: '# хода', many: '# ходов', other: '# хода' })).toBe('1,5 хода');
});

test('lists join names the language’s way (Intl.ListFormat)', () => {
  const names = ['Ada', 'Bo', 'Cy'];
  expect(en.prompt.breaksPact(names)).toBe('This turn breaks your pact with Ada, Bo, and Cy. Send it anyway?');
  expect(fr.prompt.breaksPact(names)).toContain('Ada, Bo et Cy');
  expect(es.table.drawWaiting(names)).toBe('Esperando a Ada, Bo y Cy.');
  expect(ru.table.drawWaiting(['Ада', 'Бо'])).toBe('Ждём ответа: Ада и Бо.');
  expect(ar.table.drawWaiting(['أ', 'ب'])).toBe('في انتظار أ وب.');
  expect(formatters('en').list(['a', 'b'], 'disjunction')).toBe('a or b');
  expect(en.press.names(names)).toBe('Ada, Bo, Cy');
});

test('relative times and durations come from Intl', () => {
  expect(en.time.ago(5 * 60)).toBe('5 minutes ago');
  expect(en.time.ago(0)).toBe('now');
  expect(fr.time.ago(2 * 3600 + 5)).toBe('il y a 2 heures');
  expect(es.time.ago(90)).toBe('hace 1 minuto');
  expect(ru.time.ago(3 * 86400)).toBe('3 дня назад');
  expect(ko.time.ago(30)).toBe('30초 전');
  expect(en.game.seatReconnecting(en.time.ago(120))).toBe('connection lost 2 minutes ago, may come back');
  expect(en.time.minutes(5)).toBe('5 min');
  expect(ar.time.seconds(7)).toMatch(/7/);
});

test('the browser’s languages pick the interface language; Arabic is right to left', () => {
  expect(pickLocale(['fr-CA', 'en'])).toBe('fr');
  expect(pickLocale(['de-DE', 'ko-KR', 'fr'])).toBe('ko');
  expect(pickLocale(['pt-BR', 'zh'])).toBe('en');
  expect(pickLocale(['ES_mx'])).toBe('es');
  expect(pickLocale([])).toBe('en');
  expect(LOCALES.map(dirOf)).toEqual(['ltr', 'ltr', 'ltr', 'ltr', 'ltr', 'rtl']);
  expect(LOCALE_NAMES.ar).toBe('العربية');
});

test('setLocale loads a language on demand; a spectator’s default name follows it', async () => {
  expect(await loadStrings('ru')).toBe(ru);
  expect(displayName('Spectator 3')).toBe('Spectator 3');
  await setLocale('fr');
  try {
    expect(S).toBe(fr);
    expect(displayName('Spectator 3')).toBe('Spectateur 3');
    expect(displayName('Zoé')).toBe('Zoé');
    expect(displayName('Spectator 3 and more')).toBe('Spectator 3 and more');
    await setLocale('ar');
    expect(displayName('Spectator 12')).toBe('المشاهد 12');
  } finally {
    await setLocale('en');
  }
  expect(S).toBe(enCore);
});

test('loadPageStrings gives the home, rules and replay pages their strings: English from its own chunk, another language from its file', async () => {
  expect(await loadStrings('en')).toEqual(en);
  expect('rulesPage' in enCore).toBe(false);
  await loadPageStrings();
  expect(P.rulesPage).toBe(enPages.rulesPage);
  await setLocale('ko');
  try {
    await loadPageStrings();
    expect(P).toBe(ko);
  } finally {
    await setLocale('en');
  }
});
