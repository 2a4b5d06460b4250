// What a benchmark section is: a named module that measures one thing and reports it as Markdown,
// with the targets it checked. bench/sections.ts lists them in report order.

export interface BenchContext {
  /** How many times each measurement is repeated; the report quotes medians. */
  runs: number;
  /** Seconds of load per submit measurement. */
  loadSeconds: number;
  /** The PostgreSQL server to run against, or null when none is reachable (those figures are skipped). */
  postgresUrl: string | null;
  /** A checkout of an earlier commit to measure beside this tree (`--previous-tree`), where a section compares. */
  previousTree: string | null;
  log(message: string): void;
}

export interface TargetCheck {
  name: string;
  goal: string;
  /** The measured figure as it appears in the report. */
  measured: string;
  met: boolean;
  /** What limits the figure, shown when the target is missed (the README's performance section has the profiles). */
  limit?: string;
}

export interface SectionResult {
  /** The section's body: tables and notes, without its heading. */
  markdown: string;
  targets: TargetCheck[];
}

export interface Section {
  /** Short name for `npm run bench -- --only <name>`. */
  name: string;
  title: string;
  run(context: BenchContext): Promise<SectionResult>;
}
