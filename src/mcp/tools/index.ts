// Every tool the MCP server offers, in the order tools/list shows them. A new group of tools is a
// file exporting a list, added here; nothing else needs to know about it.
import type { Tool } from '../tool.ts';
import { accountTools } from './account.ts';
import { analysisTools } from './analysis.ts';
import { auditTools } from './audit.ts';
import { dataSubjectTools } from './data-subjects.ts';
import { exportTools } from './exports.ts';
import { bulkTools } from './bulk.ts';
import { destinationTools } from './destinations.ts';
import { formTools } from './forms.ts';
import { knowledgeBaseTools } from './knowledge-bases.ts';
import { notificationTools } from './notifications.ts';
import { replyTools } from './replies.ts';
import { submissionTools } from './submissions.ts';
import { fileTools } from './files.ts';
import { submitTools } from './submit.ts';
import { memberTools } from './members.ts';

export const ALL_TOOLS: Tool[] = [
  ...formTools, ...submissionTools, ...fileTools, ...bulkTools, ...exportTools, ...submitTools, ...analysisTools, ...accountTools, ...knowledgeBaseTools, ...replyTools,
  ...destinationTools, ...notificationTools, ...dataSubjectTools, ...auditTools, ...memberTools,
];
