// Which of an owner's field names hold a person's name. The inbox shows the sender by them and a
// smart reply greets by them, so both read the same rule. English names with their usual separators
// ("full name", "first_name", "yourName"), and the common single words of other languages.
const SEP = '[ _-]?';

/** The whole name, or a field simply called "name" in any of its forms. */
export const WHOLE_NAME_KEY = new RegExp(`^(?:(?:full|your|contact|customer|sender)${SEP})?name$|^(?:nom|nombre|nome|naam)$`, 'i');
/** The given name. */
export const FIRST_NAME_KEY = new RegExp(`^(?:first|given)${SEP}name$|^(?:forename|vorname|prenom|prénom)$`, 'i');
/** The family name. */
export const LAST_NAME_KEY = new RegExp(`^(?:last|family)${SEP}name$|^(?:surname|nachname)$`, 'i');

/** A field a greeting can use: the whole name or the given one. */
export function namesPerson(key: string): boolean {
  return WHOLE_NAME_KEY.test(key) || FIRST_NAME_KEY.test(key);
}
