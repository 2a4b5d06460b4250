// The one place that decides what a role may do (docs/teams.md has the same table for people).
// Every surface asks it: the REST API (by route, in requireApiKey), MCP (tools listed and callable),
// and the dashboard (by route, in its plugin). A route or tool missing from these tables is refused,
// and test/teams.test.ts (its role matrix) fails, so a new one cannot be forgotten.
import type { Role } from '../db/tables.ts';

export type { Role };
/** Weakest first: each role may do what the ones before it may. */
export const ROLES: readonly Role[] = ['viewer', 'editor', 'admin', 'owner'];

export const MINIMUM_ROLE = {
  /** Forms, knowledge bases, submissions, replies, charts, the workspace's own settings, its members. */
  read: 'viewer',
  /** A person's own API keys and connected apps (they act with that person's role). */
  own_keys: 'viewer',
  forms_write: 'editor',
  knowledge_write: 'editor',
  destinations_read: 'editor',
  destinations_write: 'editor',
  /** Spam, done, read marks, delete. */
  triage: 'editor',
  replies: 'editor',
  exports: 'editor',
  /** Summaries, spam analysis and translations on request: they spend the workspace's AI credits. */
  ai: 'editor',
  /** The agent's own submissions to the workspace's forms. */
  submit: 'editor',
  data_subjects: 'admin',
  settings: 'admin',
  audit: 'admin',
  members_manage: 'owner',
  /** Deleting the workspace with everything in it (docs/teams.md#deleting-a-workspace). */
  workspace_delete: 'owner',
} as const satisfies Record<string, Role>;

export type Action = keyof typeof MINIMUM_ROLE;

export function allows(role: Role, action: Action): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(MINIMUM_ROLE[action]);
}

/** REST: `METHOD url` (the route's pattern, HEAD as GET) → action. */
export const REST_ACTIONS: Record<string, Action> = {
  'GET /api/forms': 'read',
  'POST /api/forms': 'forms_write',
  'GET /api/forms/:id': 'read',
  'PUT /api/forms/:id': 'forms_write',
  'DELETE /api/forms/:id': 'forms_write',
  'GET /api/forms/:form_id/submissions': 'read',
  'GET /api/forms/:form_id/submissions/export': 'exports',
  'POST /api/forms/:form_id/submissions/bulk': 'triage',
  'GET /api/forms/:form_id/submissions/:id': 'read',
  'PATCH /api/forms/:form_id/submissions/:id': 'triage',
  'DELETE /api/forms/:form_id/submissions/:id': 'triage',
  'GET /api/forms/:form_id/submissions/:id/files/:file_id': 'read',
  'POST /api/forms/:form_id/submissions/:id/reply': 'replies',
  'POST /api/forms/:form_id/submissions/:id/reply/regenerate': 'replies',
  'GET /api/forms/:form_id/destinations': 'destinations_read',
  'POST /api/forms/:form_id/destinations': 'destinations_write',
  'GET /api/forms/:form_id/destinations/:id': 'destinations_read',
  'PATCH /api/forms/:form_id/destinations/:id': 'destinations_write',
  'DELETE /api/forms/:form_id/destinations/:id': 'destinations_write',
  'POST /api/forms/:form_id/destinations/:id/regenerate-secret': 'destinations_write',
  'POST /api/forms/:form_id/destinations/:id/test': 'destinations_write',
  'GET /api/forms/:form_id/destinations/:id/deliveries': 'destinations_read',
  'POST /api/forms/:form_id/destinations/:id/deliveries/:delivery_id/retry': 'destinations_write',
  'GET /api/knowledge_bases': 'read',
  'POST /api/knowledge_bases': 'knowledge_write',
  'GET /api/knowledge_bases/:id': 'read',
  'PUT /api/knowledge_bases/:id': 'knowledge_write',
  'DELETE /api/knowledge_bases/:id': 'knowledge_write',
  'GET /api/account': 'read',
  'PATCH /api/account': 'settings',
  'GET /api/audit': 'audit',
  'POST /api/data-subjects/search': 'data_subjects',
  'POST /api/data-subjects/export': 'data_subjects',
  'POST /api/data-subjects/erase': 'data_subjects',
  'GET /api/members': 'read',
  'POST /api/members': 'members_manage',
  'PATCH /api/members/:id': 'members_manage',
  'DELETE /api/members/:id': 'members_manage',
  'DELETE /api/workspace': 'workspace_delete',
};

/** The action of a REST request, or undefined when its route has no entry (refused). */
export function restAction(method: string, url: string | undefined): Action | undefined {
  return REST_ACTIONS[`${method === 'HEAD' ? 'GET' : method} ${url ?? ''}`];
}

/** MCP: tool name → action. */
export const TOOL_ACTIONS: Record<string, Action> = {
  get_account: 'read',
  get_submission_stats: 'read',
  get_dashboard_stats: 'read',
  summarize_submissions: 'ai',
  analyze_spam: 'ai',
  translate_submission: 'ai',
  list_audit: 'audit',
  delete_submissions: 'triage',
  search_data_subject: 'data_subjects',
  erase_data_subject: 'data_subjects',
  list_destinations: 'destinations_read',
  get_destination: 'destinations_read',
  create_destination: 'destinations_write',
  update_destination: 'destinations_write',
  delete_destination: 'destinations_write',
  test_destination: 'destinations_write',
  regenerate_destination_secret: 'destinations_write',
  export_submissions: 'exports',
  get_file: 'read',
  list_forms: 'read',
  get_form: 'read',
  create_form: 'forms_write',
  update_form: 'forms_write',
  delete_form: 'forms_write',
  list_knowledge_bases: 'read',
  get_knowledge_base: 'read',
  create_knowledge_base: 'knowledge_write',
  update_knowledge_base: 'knowledge_write',
  delete_knowledge_base: 'knowledge_write',
  list_deliveries: 'destinations_read',
  retry_delivery: 'destinations_write',
  draft_reply: 'replies',
  update_reply_draft: 'replies',
  send_reply: 'replies',
  list_submissions: 'read',
  get_submission: 'read',
  delete_submission: 'triage',
  mark_spam: 'triage',
  mark_not_spam: 'triage',
  mark_read: 'triage',
  mark_unread: 'triage',
  mark_done: 'triage',
  mark_not_done: 'triage',
  enable_destination: 'destinations_write',
  disable_destination: 'destinations_write',
  submit_to_form: 'submit',
  list_members: 'read',
  invite_member: 'members_manage',
  update_member: 'members_manage',
  remove_member: 'members_manage',
  delete_workspace: 'workspace_delete',
};

export function toolAllowed(role: Role, tool: string): boolean {
  const action = TOOL_ACTIONS[tool];
  return action !== undefined && allows(role, action);
}

/**
 * The dashboard: `METHOD url` → action. A GET not listed is a page every member may read; a POST
 * not listed is refused (so a new form on a page needs an entry here).
 */
export const DASHBOARD_ACTIONS: Record<string, Action> = {
  'POST /logout': 'read',
  'POST /workspace': 'read',
  'POST /account/password': 'own_keys',
  'POST /account/language': 'settings',
  'POST /account/reply-to': 'settings',
  'GET /account/data-requests': 'data_subjects',
  'POST /account/data-requests': 'data_subjects',
  'POST /account/data-requests/export': 'data_subjects',
  'POST /account/data-requests/erase': 'data_subjects',
  'GET /audit': 'audit',
  'GET /forms/new': 'forms_write',
  'POST /forms/new': 'forms_write',
  'GET /forms/:id/edit': 'forms_write',
  'POST /forms/:id/edit': 'forms_write',
  'GET /forms/:id/export': 'exports',
  'GET /forms/:id/delete': 'forms_write',
  'POST /forms/:id/delete': 'forms_write',
  'POST /forms/:id/inbox/bulk': 'triage',
  'POST /forms/:id/submissions/:sid/spam': 'triage',
  'POST /forms/:id/submissions/:sid/done': 'triage',
  'POST /forms/:id/submissions/:sid/delete': 'triage',
  'POST /forms/:id/submissions/:sid/read': 'triage',
  'POST /forms/:id/submissions/:sid/reply': 'replies',
  'POST /forms/:id/submissions/:sid/reply/send': 'replies',
  'POST /forms/:id/submissions/:sid/reply/alternative': 'replies',
  'POST /forms/:id/submissions/:sid/reply/regenerate': 'replies',
  'GET /forms/:id/notifications': 'destinations_read',
  'POST /forms/:id/notifications': 'destinations_write',
  'GET /forms/:id/notifications/:did': 'destinations_read',
  'POST /forms/:id/notifications/:did/test': 'destinations_write',
  'POST /forms/:id/notifications/:did/enable': 'destinations_write',
  'POST /forms/:id/notifications/:did/disable': 'destinations_write',
  'POST /forms/:id/notifications/:did/delete': 'destinations_write',
  'POST /forms/:id/notifications/:did/deliveries/:delivery/retry': 'destinations_write',
  'POST /forms/:id/notifications/:did/regenerate-secret': 'destinations_write',
  'GET /knowledge/new': 'knowledge_write',
  'POST /knowledge/new': 'knowledge_write',
  'POST /knowledge/:id': 'knowledge_write',
  'GET /knowledge/:id/delete': 'knowledge_write',
  'POST /knowledge/:id/delete': 'knowledge_write',
  'POST /integrations/keys': 'own_keys',
  'POST /integrations/keys/:id/revoke': 'own_keys',
  'POST /integrations/apps/:id/revoke': 'own_keys',
  'POST /oauth/consent/:uid': 'own_keys',
  'GET /team': 'read',
  'POST /team/invite': 'members_manage',
  'POST /team/:id/role': 'members_manage',
  'POST /team/:id/remove': 'members_manage',
  'POST /team/delete-workspace': 'workspace_delete',
};

/** The action of a dashboard request: listed, else `read` for a page and undefined (refused) for a post. */
export function dashboardAction(method: string, url: string | undefined): Action | undefined {
  const key = `${method === 'HEAD' ? 'GET' : method} ${url ?? ''}`;
  return DASHBOARD_ACTIONS[key] ?? (key.startsWith('GET ') ? 'read' : undefined);
}

/** Whether a session's role may do `action`: pages hide the buttons it may not use. */
export const can = (session: { role: Role }, action: Action) => allows(session.role, action);
