// The benchmark, section by section, in report order. A new section is a module under bench/ that
// exports a Section (see section.ts) and one line here.
import { dashboardSection } from './dashboard.ts';
import { exportSection } from './export.ts';
import { footprintSection } from './footprint.ts';
import { listingSection } from './listing.ts';
import { pipelineSection } from './pipeline.ts';
import { redisOutageSection } from './redis-outage.ts';
import type { Section } from './section.ts';
import { submitSection } from './submit.ts';
import { tracingSection } from './tracing.ts';
import { uploadsSection } from './uploads.ts';

export const SECTIONS: Section[] = [
  submitSection, // items 1, 2 and 5
  footprintSection, // issue 25
  pipelineSection, // item 3
  listingSection, // item 4
  dashboardSection,
  redisOutageSection, // issue 26
  exportSection, // issue 22
  uploadsSection, // issue 34
  tracingSection, // issue 40
];
