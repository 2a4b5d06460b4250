// The words a message uses to say what the asker has or is ("my son has a nut allergy"), in the five
// languages of knowledge bases: retrieval.ts does not require a sentence to cover them.
import { fold, type Language } from './languages.ts';
import { withoutGreetings } from './greetings.ts';
import { MAX_TEXT_CHARS, termOf, words } from './terms.ts';

const OWNERS = new Set(['my', 'our', 'his', 'her', 'their']);
const STATES = new Set(['is', 'are', 'was', 'were', 's', 'has', 'have', 'had', 'gets', 'got', 'keeps']);
const SPEAKERS = new Set(['i', 'we', 'ive', 'weve', 'im']);
const HOLDING = new Set(['have', 've', 'own', 'got', 'am', 'm', 'a', 'an']);
const ASKS = new Set(['can', 'could', 'may', 'might', 'do', 'does', 'did', 'will', 'would', 'should', 'shall', 'must', 'if', 'when', 'where', 'what', 'how']);
const COUNTS = new Set(['a', 'an', 'two', 'three', 'four', 'some', 'several', 'total', 'complete']);
/** How many words name what the asker has ("my old cockapoo", "two labs"). */
const OWN_WORDS = 2;

/**
 * The same words in French, German, Italian and Spanish (folded; issue 36, eleventh round): "mon
 * fils a", "mi perra es muy mayor", "mein Sohn ist", "mia figlia è"; "j'ai un", "tengo un", "ho un",
 * "ich habe einen".
 */
const ASKER_WORDS: Record<Exclude<Language, 'en'>, { owners: ReadonlySet<string>; states: ReadonlySet<string>; speakers: ReadonlySet<string>; holding: ReadonlySet<string>; counts: ReadonlySet<string>; asks: ReadonlySet<string> }> = {
  fr: { owners: new Set(['mon', 'ma', 'mes', 'notre', 'nos']), states: new Set(['est', 'a', 'sont', 'ont', 'fait']), speakers: new Set(['j', 'nous']), holding: new Set(['ai', 'avons', 'suis', 'sommes']), counts: new Set(['un', 'une', 'deux', 'trois', 'des']), asks: new Set(['si', 'est', 'quand']) },
  de: { owners: new Set(['mein', 'meine', 'meinen', 'meinem', 'meiner', 'unser', 'unsere', 'unseren']), states: new Set(['ist', 'hat', 'sind', 'haben', 'war']), speakers: new Set(['ich', 'wir']), holding: new Set(['habe', 'haben', 'bin', 'sind', 'hab']), counts: new Set(['ein', 'eine', 'einen', 'zwei', 'drei']), asks: new Set(['kann', 'konnen', 'darf', 'muss', 'wenn', 'ob']) },
  it: { owners: new Set(['mio', 'mia', 'miei', 'mie', 'nostro', 'nostra']), states: new Set(['e', 'ha', 'sono', 'hanno', 'era']), speakers: new Set(['ho', 'abbiamo', 'sono']), holding: new Set(['un', 'una', 'uno', 'due', 'tre']), counts: new Set(['un', 'una', 'uno', 'due', 'tre']), asks: new Set(['se', 'quando']) },
  es: { owners: new Set(['mi', 'mis', 'nuestro', 'nuestra', 'nuestros']), states: new Set(['es', 'esta', 'tiene', 'son', 'estan', 'tienen', 'era']), speakers: new Set(['tengo', 'tenemos', 'soy', 'somos']), holding: new Set(['un', 'una', 'dos', 'tres']), counts: new Set(['un', 'una', 'dos', 'tres']), asks: new Set(['si', 'cuando']) },
};

/**
 * The terms of the words a message uses to say what the asker has or is, not what they ask about:
 * the subject of "my son has a nut allergy", "our old boiler is leaking", "we have two labs", "I'm a
 * total beginner". A knowledge base seldom names the asker's own things, so these words, when it
 * never uses them, are not what a sentence must cover (retrieval.ts). "Can you groom my cat?" asks
 * about the cat: the object of the request keeps its weight, as does any word after "my" that is
 * not followed by "is" or "has".
 */
export function askerTerms(text: string, language: Language = 'en'): Set<string> {
  const all = words(withoutGreetings(text.slice(0, MAX_TEXT_CHARS))).map((w) => (language === 'en' ? w.toLowerCase() : fold(w)));
  if (language !== 'en') return otherAskerTerms(all, language);
  const out = new Set<string>();
  const add = (from: number, to: number) => { for (let k = from; k < to; k += 1) { const t = termOf(all[k]!); if (t) out.add(t); } };
  for (let i = 0; i < all.length; i += 1) {
    if (OWNERS.has(all[i]!)) {
      // "my X is", "our X Y has": the words between the owner and the verb, at most OWN_WORDS.
      for (let j = i + 2; j <= i + 1 + OWN_WORDS && j < all.length; j += 1) if (STATES.has(all[j]!)) { add(i + 1, j); break; }
    } else if (SPEAKERS.has(all[i]!) && HOLDING.has(all[i + 1] ?? '') && !ASKS.has(all[i - 1] ?? '')) {
      // "we have two labs" tells; "can we have a party?", "do I have to …" ask.
      let j = i + 2;
      while (j < all.length && (COUNTS.has(all[j]!) || HOLDING.has(all[j]!))) j += 1;
      add(j, Math.min(all.length, j + OWN_WORDS));
    }
  }
  return out;
}

function otherAskerTerms(all: string[], language: Exclude<Language, 'en'>): Set<string> {
  const { owners, states, speakers, holding, counts, asks } = ASKER_WORDS[language];
  const out = new Set<string>();
  const add = (from: number, to: number) => { for (let k = from; k < to; k += 1) { const t = termOf(all[k]!, language); if (t) out.add(t); } };
  for (let i = 0; i < all.length; i += 1) {
    if (owners.has(all[i]!)) {
      for (let j = i + 2; j <= i + 1 + OWN_WORDS && j < all.length; j += 1) if (states.has(all[j]!)) { add(i + 1, j); break; }
    } else if (speakers.has(all[i]!) && holding.has(all[i + 1] ?? '') && !asks.has(all[i - 1] ?? '')) {
      let j = i + 2;
      while (j < all.length && counts.has(all[j]!)) j += 1;
      add(j, Math.min(all.length, j + OWN_WORDS));
    }
  }
  return out;
}
