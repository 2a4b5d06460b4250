// The audit log's shape, shared by GET /api/audit and the list_audit tool.
import { Type } from 'typebox';

export const AuditEntryOutput = Type.Object({
  id: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  key_id: Type.String({ description: 'The API key that made the change' }),
  key_name: Type.String({ description: 'Its name when the change was made' }),
  surface: Type.Enum(['api', 'mcp', 'dashboard', 'cli', 'system'], {
    description: 'api: the REST API; mcp: an agent through /mcp; dashboard and cli: an owner without a key; system: the retention purge',
  }),
  operation: Type.String({ description: 'The route (METHOD /path) or the MCP tool' }),
  target_id: Type.Unsafe<string | null>({ type: ['string', 'null'], description: 'The id of what was changed, when there is one' }),
  outcome: Type.Enum(['succeeded', 'failed']),
  detail: Type.Unsafe<string | null>({ type: ['string', 'null'], description: 'What it counted: rows exported, submissions erased or purged (never who)' }),
  member: Type.Unsafe<string | null>({ type: ['string', 'null'], description: 'The workspace member who acted (their email then); null for entries from before teams and for the system' }),
});

export const AuditQuery = Type.Object(
  {
    page: Type.Integer({ minimum: 1, maximum: 1_000_000_000, default: 1 }),
    page_size: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
  },
  { additionalProperties: true },
);

export const AuditPageOutput = Type.Object({
  data: Type.Array(AuditEntryOutput),
  meta: Type.Object({ current_page: Type.Integer(), total_pages: Type.Integer(), total_count: Type.Integer(), page_size: Type.Integer() }),
});
