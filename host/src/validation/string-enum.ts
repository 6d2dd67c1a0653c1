import { type TUnsafe, Type } from '@sinclair/typebox';

/**
 * A string schema limited to `values`, written as JSON Schema `enum` (which
 * OpenAPI and validators render better than a union of literals).
 */
export function StringEnum<const T extends readonly string[]>(values: T, options: { description?: string; default?: T[number] } = {}): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}
