// The `mailchecker` list of throwaway mailbox domains, held compactly. Importing mailchecker keeps its
// 1 MB source twice over (the CommonJS loader holds it beside the compiled code) and a Set of 55,000
// strings: about 5 MB of the API process's heap for good. Here the list is read from the same file once,
// kept as one sorted string of the domains with their start offsets (about 1.2 MB) and searched by
// bisection; the answers are the Set's (test/disposable-domains.test.ts checks every domain).
import fs from 'node:fs';
import { createRequire } from 'node:module';

interface DomainList {
  text: string;
  /** Start of each domain in text; the domain ends one character before the next start. */
  starts: Uint32Array;
}

/** The domains of mailchecker's Set literal, as its own file writes them. */
export function mailcheckerDomains(): string[] {
  const source = fs.readFileSync(createRequire(import.meta.url).resolve('mailchecker'), 'utf8');
  const begin = source.indexOf('new Set([');
  const end = source.indexOf(']);', begin);
  if (begin === -1 || end === -1) throw new Error('mailchecker: its list of domains was not found where this reader expects it');
  return JSON.parse(source.slice(begin + 'new Set('.length, end + 1)) as string[];
}

let list: DomainList | null = null;

function load(): DomainList {
  const domains = [...new Set(mailcheckerDomains())].sort();
  const starts = new Uint32Array(domains.length + 1);
  let offset = 0;
  domains.forEach((domain, i) => {
    starts[i] = offset;
    offset += domain.length + 1;
  });
  starts[domains.length] = offset;
  // join makes one flat string: slices of the file's text would keep all of it alive.
  return { text: `${domains.join('\n')}\n`, starts };
}

/** Whether the domain itself (not its parents) is on the list. */
export function isListedDomain(domain: string): boolean {
  const { text, starts } = (list ??= load());
  let low = 0;
  let high = starts.length - 2;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const candidate = text.slice(starts[middle], (starts[middle + 1] as number) - 1);
    if (candidate === domain) return true;
    if (candidate < domain) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}
