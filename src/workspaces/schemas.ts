// What /api/members and the member tools take and answer.
import { Type } from 'typebox';
import type { Member } from './store.ts';

export const RoleName = Type.Enum(['owner', 'admin', 'editor', 'viewer'], { description: 'What the member may do: docs/teams.md has the matrix' });

export const MemberOutput = Type.Object({
  id: Type.String(),
  email: Type.String(),
  role: RoleName,
  status: Type.Enum(['invited', 'active'], { description: '`invited` until the invitation link is accepted' }),
  invite_expires_at: Type.Unsafe<string | null>({ type: ['string', 'null'], format: 'date-time' }),
  created_at: Type.String({ format: 'date-time' }),
  accepted_at: Type.Unsafe<string | null>({ type: ['string', 'null'], format: 'date-time' }),
});

export const InvitedMemberOutput = Type.Object({
  member: MemberOutput,
  invite_url: Type.String({ format: 'uri', description: 'One-time link, valid 7 days: shown only in this answer (only its hash is stored)' }),
  emailed: Type.Boolean({ description: 'Whether the link was also emailed (mail configured and accepted)' }),
});

export const InviteBody = Type.Object({
  email: Type.String({ format: 'email', maxLength: 254 }),
  role: RoleName,
}, { additionalProperties: false });

export const RoleBody = Type.Object({ role: RoleName }, { additionalProperties: false });
export const MemberParams = Type.Object({ id: Type.String({ maxLength: 100 }) });

export function presentMember(member: Member) {
  return {
    id: member.id,
    email: member.email,
    role: member.role,
    status: member.status,
    invite_expires_at: member.inviteExpiresAt,
    created_at: member.createdAt,
    accepted_at: member.acceptedAt,
  };
}

export const DeleteWorkspaceBody = Type.Object({
  confirm: Type.String({ minLength: 1, maxLength: 320, description: "The workspace's name, its email (as GET /api/account answers it): anything else deletes nothing (422 cannot_delete)" }),
}, { additionalProperties: false });

export const DeletedWorkspaceOutput = Type.Object({
  workspace: Type.String({ description: 'The name (email) of the workspace deleted' }),
  forms: Type.Integer(),
  submissions: Type.Integer(),
  files: Type.Integer({ description: 'Uploaded files: their bytes are deleted from the file storage too' }),
  knowledge_bases: Type.Integer(),
  members: Type.Integer({ description: 'Active members who lost their access; their logins stay' }),
});
