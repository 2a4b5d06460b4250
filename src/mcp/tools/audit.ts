// The audit log as a tool: what the owner's keys (and agents) changed, and when.
import { Type } from 'typebox';
import { AuditEntryOutput } from '../../audit/schemas.ts';
import { defineTool, READ } from '../tool.ts';

export const auditTools = [
  defineTool({
    name: 'list_audit',
    title: 'List the audit log',
    description: "Every write made with the owner's API keys, newest first: when, which key (id and name), through which surface (api: the REST API; mcp: an agent's tool call), the operation, the id it acted on, and whether it succeeded. Use it to answer what changed and who changed it. Free.",
    input: Type.Object({
      page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000_000, description: 'Default 1' })),
      page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Default 20' })),
    }, { additionalProperties: false }),
    output: Type.Object({
      entries: Type.Array(AuditEntryOutput),
      page: Type.Integer(),
      total_pages: Type.Integer(),
      total_count: Type.Integer(),
    }),
    annotations: READ,
    async run({ page = 1, page_size = 20 }, { owner, services }) {
      const { data, meta } = await services.audit.list(owner.account.id, page, page_size);
      return { entries: data, page: meta.current_page, total_pages: meta.total_pages, total_count: meta.total_count };
    },
  }),
];
