// Writing systems that do not fit: a word mixing Latin with Cyrillic/Greek look-alikes
// ("vіagra"), or a long text in a script that no other field, nor the form's purpose, uses
// (a Cyrillic or Chinese sales pitch sent to an English contact form).

import type { SignalHit } from '../types.ts';
import type { SubmissionText } from '../submission-text.ts';
import { dominantScript, findMixedScriptWord, scriptLetters } from '../unicode-scripts.ts';

const MIN_LETTERS_OF_ODD_FIELD = 20;
const MIN_LETTERS_OF_CONTEXT = 3;

export function mixedScriptSignal(text: SubmissionText): SignalHit | null {
  for (const field of text.prose) {
    const word = findMixedScriptWord(field.value);
    if (word) return { id: 'mixed_script', weight: 0.7, detail: `look-alike letters from another alphabet in "${word}"` };
  }
  return null;
}

export function scriptMismatchSignal(text: SubmissionText): SignalHit | null {
  const scripts = text.prose.map((field) => {
    const { script, letters } = scriptLetters(field.value);
    return { field, script: letters >= MIN_LETTERS_OF_CONTEXT ? script : null, long: letters >= MIN_LETTERS_OF_ODD_FIELD };
  });
  const intentScript = text.input.intent ? dominantScript(text.input.intent, MIN_LETTERS_OF_CONTEXT) : null;
  for (const { field, script, long } of scripts) {
    if (script === null || !long) continue;
    const context = scripts.filter((other) => other.field !== field && other.script !== null).map((other) => other.script);
    if (intentScript) context.push(intentScript);
    if (context.length > 0 && !context.includes(script)) {
      return { id: 'script_mismatch', weight: 0.4, detail: `"${field.name}" is written in ${script} script, unlike the rest of the form` };
    }
  }
  return null;
}
