import { ApiModule } from '../../apps/api/src/api.module';
import { API_APP_OPTIONS } from '../../apps/api/src/api-app';
import { createTestHttpApp, TestAppOverrides } from './http-app';

/** The real api app module, served in-process on an ephemeral port. */
export function createApiApp(overrides: TestAppOverrides = {}) {
  return createTestHttpApp(ApiModule, API_APP_OPTIONS, overrides);
}
