// Light words: verbs, nouns and framing words that carry the grammar of a question, or the kind of
// information it asks for, more than its topic ("do I need to get …", "what's your policy on …", "is
// it far …"). retrieval.ts weighs them as nothing when the knowledge base never uses them, like any
// word when it does. Terms as terms.ts compares them, in the five languages of knowledge bases.
import { frenchStem, type Language } from './languages.ts';
import { foldGerman, germanStem } from './german.ts';
import { italianStem } from './italian.ts';
import { spanishStem } from './spanish.ts';
import { englishTerm } from './synonyms.ts';

/**
 * Light verbs, by stem: verbs that carry the grammar of a question more than its topic ("do I need
 * to give you my passcode", "if something gets broken", "how long till we get the pics back",
 * "can you sort it"). When the knowledge base never uses one, it does not count against a sentence
 * (retrieval.ts); when it does ("We keep keys in a safe"), it is weighed like any word.
 */
export const LIGHT_VERBS: ReadonlySet<string> = new Set(
  [
    ...['get', 'got', 'gets', 'getting', 'go', 'goes', 'going', 'went', 'give', 'given', 'keep', 'put', 'make', 'come', 'sort', 'need'].map(englishTerm),
    // Their irregular forms, which the stemmer leaves apart ("an album made up", "a service wash done
    // same day", "they came round"), and "done" of "get it done" (issue 36, thirteenth round).
    ...['made', 'came', 'gave', 'kept', 'done'].map(englishTerm),
    // Italian and Spanish "come", "give", "take", "put", "go", "bring" ("potete venire?", "che garanzia date", "¿podéis venir?", "llevar al perro").
    ...['venire', 'venite', 'vengo', 'dare', 'date', 'prendete', 'prendere', 'mettete', 'mettere'].map((w) => italianStem(w)),
    ...['venir', 'venis', 'vienen', 'ir', 'voy', 'dar', 'dais', 'llevar', 'llevo', 'poner'].map((w) => spanishStem(w)),
  ],
);
/**
 * Light verbs of one language only (eleventh round): French and German "come", "go", "give", "take",
 * "bring", "get" ("on peut venir avec notre chien ?", "wie bekomme ich einen Termin?"), Italian
 * "portare", Spanish "traer". Apart, as their stems are English words too (German "bringen" is "bring").
 */
const OWN_LIGHT_VERBS: Record<Language, ReadonlySet<string>> = {
  en: new Set(),
  // With "happen" and "need" ("que se passe-t-il si", "was passiert wenn", "cosa succede se", "qué pasa si", "hace falta", "ich brauche").
  fr: new Set(['venir', 'viens', 'venez', 'aller', 'vais', 'allez', 'donner', 'donnez', 'prendre', 'prenez', 'apporter', 'amener', 'mettre', 'passe', 'besoin'].map((w) => frenchStem(w))),
  de: new Set([
    ...['kommen', 'komme', 'kommt', 'gehen', 'geht', 'geben', 'gebt', 'nehmen', 'nehmt', 'bekommen', 'bekomme', 'kriegen', 'passiert', 'brauche', 'brauchen', 'braucht'].map((w) => germanStem(foldGerman(w))),
    // "mitbringen", "mitnehmen", "bringen", compared as English "bring" (twelfth round): light in German knowledge bases only.
    'bring',
  ]),
  it: new Set(['portare', 'porto', 'arrivare', 'succede', 'succedere', 'bisogna', 'serve', 'servono'].map((w) => italianStem(w))),
  es: new Set(['traer', 'traigo', 'pasa', 'pasar', 'falta', 'necesito', 'necesario'].map((w) => spanishStem(w))),
};
/** Whether a term is a light verb in the knowledge base's language. */
export const isLightVerb = (term: string, language: Language) => LIGHT_VERBS.has(term) || OWN_LIGHT_VERBS[language].has(term);

/**
 * Light nouns, by stem: words that name the kind of information asked for, not its topic ("what's
 * your cancelation policy?", "what are the rules for dogs?", "any details on parking?"). Weighed
 * like light verbs: nothing when the knowledge base never uses them ("Please give 48 hours notice
 * if you need to cancel" answers the first), like any word when it does ("Our privacy policy …").
 */
export const LIGHT_NOUNS: ReadonlySet<string> = new Set(['policy', 'policies', 'rule', 'rules', 'detail', 'details'].map(englishTerm));

/**
 * Framing words, by term: how far, whether at a cost, when by, not about what ("is it far from the
 * station?", "c'est loin la plage ?", "is it extra?", "do I get my deposit back?", "how long till we
 * get the pics?"). Weighed like light verbs: nothing when the knowledge base never uses them ("a
 * five minutes' walk from the station" answers the first), like any word when it does ("an extra
 * £2 a day", "back pain"). Issue 36, seventh round.
 */
export const LIGHT_FRAMES: ReadonlySet<string> = new Set([
  ...['far', 'extra', 'back', 'till'].map(englishTerm),
  frenchStem('loin'), germanStem(foldGerman('weit')),
  // Money itself ("money back", "money off", "me devolvéis el dinero", "l'argent"): what a refund, a
  // discount or a price is paid in, not what is asked about (issue 36, thirteenth round).
  englishTerm('money'), frenchStem('argent'), germanStem(foldGerman('geld')), italianStem('soldi'), italianStem('denaro'), spanishStem('dinero'),
  // How exact an answer may be ("wie lange dauert das ungefähr?", "roughly how much", "environ combien"):
  // "Eine Stimmung dauert etwa 90 Minuten" answers it without the word (issue 36, eighteenth round).
  ...['roughly', 'approximately', 'approx'].map(englishTerm), germanStem(foldGerman('ungefähr')), germanStem(foldGerman('circa')), germanStem(foldGerman('zirka')),
  frenchStem('environ'), italianStem('circa'), spanishStem('aproximadamente'),
]);
