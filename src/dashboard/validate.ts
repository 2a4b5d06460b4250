// Dashboard input is checked by the API's own body schemas (then by the services), so a form on a
// page can never accept what the API would refuse.
import type { TSchema } from 'typebox';
import { fail } from '../http/errors.ts';
import { routeValidatorCompiler, toFieldErrors } from '../http/route-validation.ts';

type Check = ((data: unknown) => boolean) & { errors?: Parameters<typeof toFieldErrors>[0] | null };

export function bodyChecker<T>(schema: TSchema): (input: Record<string, unknown>) => T {
  const check = routeValidatorCompiler({ schema, httpPart: 'body', method: 'POST', url: '/' }) as unknown as Check;
  return (input) => {
    if (!check(input)) throw fail.validation(toFieldErrors(check.errors ?? []));
    return input as T;
  };
}
