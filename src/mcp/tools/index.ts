// Every tool the MCP server offers, in the order tools/list shows them. A new group of tools is a
// file exporting a list, added here; nothing else needs to know about it.
import type { Tool } from '../tool.ts';
import { auditTools } from './audit.ts';
import { formTools } from './forms.ts';
import { submissionTools } from './submissions.ts';

export const ALL_TOOLS: Tool[] = [...formTools, ...submissionTools, ...auditTools];
