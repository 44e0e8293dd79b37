/**
 * The authentication mechanisms by type, built once per application when the configuration
 * loads. A new mechanism is one more case here.
 */
import { errorResponse } from '../http-types.js'
import type { MechanismFactory } from '../routing/route-table.js'
import type { GatewayServices } from '../serve-deployment.js'
import { apiKeyAuthenticator } from './api-key.js'
import { workflowAuthenticator, type WorkflowSettings } from './workflow.js'

export function mechanismFactory(services: GatewayServices): MechanismFactory {
  return (definition, app, runtime) => {
    switch (definition.type) {
      case 'apiKey':
        return apiKeyAuthenticator(runtime.apiKeys, app.application.project)
      case 'workflow':
        return workflowAuthenticator(definition as unknown as WorkflowSettings, app, services)
      default: {
        // The schema admits only the types above; a store written by a newer version may not.
        const response = errorResponse(
          500,
          'INTERNAL',
          `Authentication mechanism '${definition.type}' is not available`,
        )
        return {
          type: definition.type,
          authenticate: () => ({ kind: 'rejected', code: 'INTERNAL', response }),
        }
      }
    }
  }
}
