/**
 * Truth of a condition, as JSONata's `$boolean` defines it: false for undefined, null, false,
 * 0, "", an empty object, and an array none of whose items is true; true otherwise.
 */
export function truthy(value: unknown): boolean {
  if (value === undefined || value === null) return false
  switch (typeof value) {
    case 'boolean':
      return value
    case 'number':
      return value !== 0 && !Number.isNaN(value)
    case 'string':
      return value.length > 0
    case 'object':
      return Array.isArray(value) ? value.some(truthy) : Object.keys(value).length > 0
    default:
      return false
  }
}
