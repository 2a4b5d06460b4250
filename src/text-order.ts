// Orders strings by their UTF-16 code units, as `<` does. localeCompare asks ICU's collator, whose
// first use maps about 12 MB of the Node binary's ICU code and data into the process (docs/memory.md);
// for ids, timestamps and codes (ASCII, lower-case) the two orders are the same.
export function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
