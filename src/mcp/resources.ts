// Each of the owner's forms offers its current fields schema as a resource, so that an agent (or
// the person driving it) can attach it as context before writing a submission or a change:
// intake://forms/{form_id}/schema, JSON with the endpoint it applies to.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode, ListResourcesRequestSchema, ListResourceTemplatesRequestSchema, McpError, ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { presentFormSummary } from '../forms/present.ts';
import { AppError } from '../http/errors.ts';
import type { ToolContext } from './tool.ts';

const SCHEMA_URI = /^intake:\/\/forms\/([A-Za-z0-9-]{1,100})\/schema$/;
const MIME = 'application/json';
/** The specification's code for a resource that does not exist. */
const RESOURCE_NOT_FOUND = -32002;

export const schemaUri = (formId: string) => `intake://forms/${formId}/schema`;

export function registerResources(server: Server, { owner, services, baseUrl }: ToolContext): void {
  server.setRequestHandler(ListResourcesRequestSchema, async () => {
    const forms = await services.forms.list(owner.account.id);
    return {
      resources: forms.map((form) => ({
        uri: schemaUri(form.id),
        name: `${form.slug}-schema`,
        title: `Fields schema of the form ${form.name}`,
        description: "The form's current fields (names, types, rules) and the endpoint that takes them.",
        mimeType: MIME,
      })),
    };
  });

  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [{
      uriTemplate: 'intake://forms/{form_id}/schema',
      name: 'form-schema',
      title: "A form's fields schema",
      description: 'The current fields schema of one of your forms (form_id from list_forms), with its version and endpoint.',
      mimeType: MIME,
    }],
  }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const { uri } = request.params;
    const formId = SCHEMA_URI.exec(uri)?.[1];
    if (!formId) throw new McpError(ErrorCode.InvalidParams, `Unknown resource URI: expected intake://forms/{form_id}/schema.`);
    let form;
    try {
      form = await services.forms.get(owner.account.id, formId);
    } catch (error) {
      if (error instanceof AppError && error.status === 404) throw new McpError(RESOURCE_NOT_FOUND, 'Resource not found: no such form.', { uri });
      throw error;
    }
    const { id, name, slug, endpoint } = presentFormSummary(form, baseUrl);
    const text = JSON.stringify({ form_id: id, name, slug, endpoint, schema_version: form.version.number, schema: form.version.schema });
    return { contents: [{ uri, mimeType: MIME, text }] };
  });
}
