// Teams (migration 0041): who may act in which workspace (an accounts row), with which role.
import type { Timestamp, NullableTimestamp } from './columns.ts';

export type Role = 'owner' | 'admin' | 'editor' | 'viewer';

export interface WorkspaceMembersTable {
  id: string;
  workspace_id: string;
  /** The person's own account row (their login); null while inviting an email new to the server. */
  person_id: string | null;
  email: string;
  role: Role;
  status: 'invited' | 'active';
  invite_hash: string | null;
  invite_expires_at: NullableTimestamp;
  invited_by: string | null;
  created_at: Timestamp;
  accepted_at: NullableTimestamp;
}

export interface OauthGrantMembersTable {
  grant_id: string;
  workspace_id: string;
  person_id: string;
}
