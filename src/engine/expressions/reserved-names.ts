/**
 * Names a flow variable may not take. Flow variables are bound as `$name` next to JSONata's
 * built-in functions, so a variable called `sum` would silently replace `$sum()` in every
 * expression of the flow. We refuse such names at load time instead.
 */
export const jsonataFunctionNames: ReadonlySet<string> = new Set(
  (
    'sum count max min average string substring substringBefore substringAfter lowercase ' +
    'uppercase length trim pad match contains replace split join formatNumber formatBase ' +
    'formatInteger parseInteger number floor ceil round abs sqrt power random boolean not map ' +
    'zip filter single reduce sift keys lookup append exists spread merge reverse each error ' +
    'assert type sort shuffle distinct base64encode base64decode encodeUrlComponent encodeUrl ' +
    'decodeUrlComponent decodeUrl eval toMillis fromMillis clone now millis'
  ).split(' '),
)
