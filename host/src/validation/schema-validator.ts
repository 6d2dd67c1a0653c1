import type { Static, TSchema } from '@sinclair/typebox';
import { checkWith, type SchemaCheck } from '@strata/sandbox';
import { Ajv, type ValidateFunction } from 'ajv';

const ajv = new Ajv({ allErrors: false, strict: false, coerceTypes: false, useDefaults: false });
const compiled = new WeakMap<object, ValidateFunction>();

/** Compiles `schema` once (results are cached per schema object). */
export function compileSchema<S extends TSchema>(schema: S): SchemaCheck<Static<S>> {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  return checkWith<Static<S>>(validate);
}
