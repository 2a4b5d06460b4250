// One reading of a text that the heuristics and the classifier share. A check reads a submission's prose several
// times over: its links (the link heuristics, the classifier), the prose without them (gibberish, the shape
// features, the classifier's words) and its shape (cold_pitch, cold_offer, priced_offer, site_critique, loan_offer
// and the classifier). Each is worked out here once per check, on first use, and kept; the link pattern, the
// costliest of them, runs once for links and link-free text together.

import { scanUrls, type FoundUrl } from './urls.ts';
import { foldHomoglyphs } from './unicode-scripts.ts';
import { shapeFeatures } from './shape.ts';
import { namingWords } from './own-link.ts';

export class TextView {
  readonly text: string;
  readonly urls: FoundUrl[];
  /** The text with each link blanked to one space (removeUrls). */
  readonly withoutUrls: string;
  #normalized: string | undefined;
  #written: string | undefined;
  #lowerWritten: string | undefined;
  #shape: readonly string[] | undefined;
  #shapeSet: ReadonlySet<string> | undefined;
  #namingWords: ReadonlySet<string> | undefined;

  constructor(text: string) {
    this.text = text;
    const { urls, withoutUrls } = scanUrls(text);
    this.urls = urls;
    this.withoutUrls = withoutUrls;
  }

  /** Without links, NFKC-normalised: where the classifier looks for e-mail addresses. */
  get normalized(): string {
    this.#normalized ??= this.withoutUrls.normalize('NFKC');
    return this.#normalized;
  }

  /** Without links, normalised, look-alike letters folded to Latin: what the shape features and the classifier's words read. */
  get written(): string {
    this.#written ??= foldHomoglyphs(this.normalized);
    return this.#written;
  }

  get lowerWritten(): string {
    this.#lowerWritten ??= this.written.toLowerCase();
    return this.#lowerWritten;
  }

  /** The shape features of `written` (shape.ts), in the order the classifier adds them. */
  get shape(): readonly string[] {
    this.#shape ??= shapeFeatures(this.written, this.lowerWritten, this.urls.length);
    return this.#shape;
  }

  get shapeSet(): ReadonlySet<string> {
    this.#shapeSet ??= new Set(this.shape);
    return this.#shapeSet;
  }

  /** The words that may name a link's domain (own-link.ts), for stranger_link and the classifier's `u!named`. */
  get namingWords(): ReadonlySet<string> {
    this.#namingWords ??= namingWords([this.text]);
    return this.#namingWords;
  }
}
