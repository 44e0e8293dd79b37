/**
 * The flows of one project that `call` steps can reach, and the load-time checks on their
 * call graph: every called flow exists, and no flow reaches itself (recursion through `call`
 * is refused; the call-depth cap only guards long chains).
 */
import type { CompiledFlow } from './definition.js'

export type FlowRegistry = ReadonlyMap<string, CompiledFlow>

export interface CallGraphProblem {
  readonly flow: string
  /** The `call` step's position in that flow. */
  readonly path: readonly (string | number)[]
  readonly message: string
}

export function checkCallGraph(registry: FlowRegistry): CallGraphProblem[] {
  const problems: CallGraphProblem[] = []
  for (const flow of registry.values()) {
    for (const call of flow.calls) {
      if (!registry.has(call.flow)) {
        problems.push({
          flow: flow.name,
          path: call.path,
          message: `calls flow '${call.flow}', which does not exist`,
        })
      }
    }
  }
  // Depth-first search; a grey node met again closes a cycle.
  const colour = new Map<string, 'grey' | 'black'>()
  const trail: string[] = []
  const reported = new Set<string>()
  const visit = (name: string): void => {
    colour.set(name, 'grey')
    trail.push(name)
    for (const call of registry.get(name)?.calls ?? []) {
      const callee = call.flow
      if (!registry.has(callee)) continue
      const state = colour.get(callee)
      if (state === 'grey') {
        const cycle = [...trail.slice(trail.indexOf(callee)), callee]
        const key = [...cycle.slice(0, -1)].sort().join(',')
        if (!reported.has(key)) {
          reported.add(key)
          problems.push({
            flow: name,
            path: call.path,
            message: `calls form a cycle: ${cycle.join(' -> ')}`,
          })
        }
      } else if (state === undefined) {
        visit(callee)
      }
    }
    trail.pop()
    colour.set(name, 'black')
  }
  for (const name of registry.keys()) if (!colour.has(name)) visit(name)
  return problems
}
