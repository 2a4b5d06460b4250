// /api/forms/{form_id}/destinations: thin handlers over the destination and delivery services.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AccountService } from '../accounts/service.ts';
import type { Config } from '../config.ts';
import { FormErrors } from '../forms/schemas.ts';
import { ownerOf, requireApiKey } from '../http/auth.ts';
import { useErrorFamily } from '../http/error-replies.ts';
import type { DeliveryService } from './deliveries/service.ts';
import type { DestinationService } from './destinations/service.ts';
import { presentDelivery, presentDestination } from './present.ts';
import {
  CreateDestinationBody, DeliveryOutput, DeliveryPage, DeliveryParams, DestinationOutput, DestinationParams, DestinationWithSecret,
  PageQuery, TestOutput, UpdateDestinationBody,
} from './schemas.ts';

const security = [{ apiKey: [] }];
const tags = ['Destinations'];
const FormParams = Type.Object({ form_id: Type.String() });

export const destinationRoutes: FastifyPluginAsyncTypebox<{
  config: Config; accounts: AccountService; destinations: DestinationService; deliveries: DeliveryService;
}> = async (app, { config, accounts, destinations, deliveries }) => {
  // Destinations live under /api/forms: they answer errors in the forms family's format.
  useErrorFamily(app, 'forms', config.maxBodyBytes);
  requireApiKey(app, accounts);
  const owner = (request: Parameters<typeof ownerOf>[0]) => ownerOf(request).account.id;

  app.get('/api/forms/:form_id/destinations', {
    schema: { tags, security, summary: "List a form's destinations", params: FormParams, response: { 200: Type.Object({ destinations: Type.Array(DestinationOutput) }), ...FormErrors } },
  }, async (request) => ({ destinations: (await destinations.list(owner(request), request.params.form_id)).map(presentDestination) }));

  app.post('/api/forms/:form_id/destinations', {
    schema: {
      tags, security, summary: 'Add a destination',
      description: 'A webhook gets a signing secret, shown only in this response. Beyond the body schema, 422 also when the url is plain HTTP '
        + 'to a host the operator does not allow, or points to a private address, and for an email destination given neither recipients nor recipients_role '
        + '(it needs one or both: recipients `needs at least one email address, or recipients_role`).',
      params: FormParams, body: CreateDestinationBody, response: { 201: DestinationWithSecret, ...FormErrors },
    },
  }, async (request, reply) => {
    const { destination, secret } = await destinations.create(owner(request), request.params.form_id, request.body);
    return reply.code(201).send({ ...presentDestination(destination), ...(secret && { secret }) });
  });

  app.get('/api/forms/:form_id/destinations/:id', {
    schema: { tags, security, summary: 'Get a destination', params: DestinationParams, response: { 200: DestinationOutput, ...FormErrors } },
  }, async (request) => presentDestination(await destinations.get(owner(request), request.params.form_id, request.params.id)));

  app.patch('/api/forms/:form_id/destinations/:id', {
    schema: {
      tags, security, summary: 'Change a destination, or enable or disable it',
      description: 'Enabling a destination starts its failure count afresh. The type cannot change (422 for another type than the stored one), '
        + "and the members of other types than the stored one's are refused (422) as on create; the url as on create; an email destination left with "
        + 'neither recipients nor recipients_role is refused (422) as on create. '
        + "The form's own webhook (source form) is changed through PUT /api/forms/{id} (422 here).",
      params: DestinationParams, body: UpdateDestinationBody, response: { 200: DestinationOutput, ...FormErrors },
    },
  }, async (request) => presentDestination(await destinations.update(owner(request), request.params.form_id, request.params.id, request.body)));

  app.delete('/api/forms/:form_id/destinations/:id', {
    schema: { tags, security, summary: 'Delete a destination and its delivery log', params: DestinationParams, response: { 200: DestinationOutput, ...FormErrors } },
  }, async (request) => presentDestination(await destinations.delete(owner(request), request.params.form_id, request.params.id)));

  app.post('/api/forms/:form_id/destinations/:id/regenerate-secret', {
    schema: { tags, security, summary: "Replace a webhook's signing secret", params: DestinationParams, response: { 200: DestinationWithSecret, ...FormErrors } },
  }, async (request) => {
    const { destination, secret } = await destinations.regenerateSecret(owner(request), request.params.form_id, request.params.id);
    return { ...presentDestination(destination), secret };
  });

  app.post('/api/forms/:form_id/destinations/:id/test', {
    schema: { tags, security, summary: 'Send a sample event now (type submission.test)', params: DestinationParams, response: { 200: TestOutput, ...FormErrors } },
  }, async (request) => {
    const { delivered, delivery } = await deliveries.test(owner(request), request.params.form_id, request.params.id);
    return { delivered, delivery: presentDelivery(delivery) };
  });

  app.get('/api/forms/:form_id/destinations/:id/deliveries', {
    schema: { tags, security, summary: 'The delivery log, newest first, with every attempt', params: DestinationParams, querystring: PageQuery, response: { 200: DeliveryPage, ...FormErrors } },
  }, async (request) => {
    const { page, page_size: pageSize } = request.query;
    const { deliveries: list, total } = await deliveries.list(owner(request), request.params.form_id, request.params.id, page, pageSize);
    return { data: list.map(presentDelivery), meta: { current_page: page, total_pages: Math.ceil(total / pageSize), total_count: total, page_size: pageSize } };
  });

  app.post('/api/forms/:form_id/destinations/:id/deliveries/:delivery_id/retry', {
    schema: { tags, security, summary: 'Send a failed delivery again', params: DeliveryParams, response: { 202: DeliveryOutput, ...FormErrors } },
  }, async (request, reply) => {
    const delivery = await deliveries.retry(owner(request), request.params.form_id, request.params.id, request.params.delivery_id);
    return reply.code(202).send(presentDelivery(delivery));
  });
};
