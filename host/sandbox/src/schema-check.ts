import type { ErrorObject, ValidateFunction } from 'ajv';

/**
 * A compiled check of one schema. Validates `value`: returns it typed when it
 * conforms; otherwise a message naming the first offending field, with
 * `rootName` as its root (for example `body.positions["file:a.ts"].x: must be number`).
 */
export type SchemaCheck<T> = (value: unknown, rootName: string) => { ok: true; value: T } | { ok: false; field: string; message: string };

/** Wraps an Ajv validate function compiled elsewhere (a plugin's parameter schema) as a `SchemaCheck`. */
export function checkWith<T>(check: ValidateFunction): SchemaCheck<T> {
  return (value, rootName) => {
    if (check(value)) return { ok: true, value: value as T };
    const error = check.errors?.[0];
    if (!error) return { ok: false, field: rootName, message: `${rootName}: is invalid` };
    const { field, message } = describeError(error, rootName);
    return { ok: false, field, message: `${field}: ${message}` };
  };
}

/** Turns a JSON pointer into `root.key["odd key"][0]`. */
export function fieldName(rootName: string, pointer: string): string {
  if (pointer === '') return rootName;
  let name = rootName;
  for (const raw of pointer.slice(1).split('/')) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (/^\d+$/.test(segment)) name += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(segment)) name += name === '' ? segment : `.${segment}`;
    else name += `[${JSON.stringify(segment)}]`;
  }
  return name;
}

function describeError(error: ErrorObject, rootName: string): { field: string; message: string } {
  const at = fieldName(rootName, error.instancePath);
  switch (error.keyword) {
    case 'additionalProperties': {
      const key = String((error.params as { additionalProperty: string }).additionalProperty);
      return { field: fieldName(at, `/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`), message: 'is not a known field' };
    }
    case 'required': {
      const key = String((error.params as { missingProperty: string }).missingProperty);
      return { field: fieldName(at, `/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`), message: 'is required' };
    }
    case 'enum': {
      const allowed = (error.params as { allowedValues: unknown[] }).allowedValues;
      return { field: at, message: `must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}` };
    }
    default:
      return { field: at, message: error.message ?? 'is invalid' };
  }
}
