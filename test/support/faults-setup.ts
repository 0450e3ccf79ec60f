import { assertFreshBuild } from './fresh-build';

/** The fault suites bring PostgreSQL and Redis of their own; they only need a current build. */
export default function faultsSetup(): void {
  assertFreshBuild();
}
