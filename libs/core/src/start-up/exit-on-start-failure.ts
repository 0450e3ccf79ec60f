import { InvalidSettingsError } from '../config/settings';
import { StartupFailure } from './dependencies';

/**
 * Ends a process that could not start, with code 1: what the operator can fix in its own words, anything
 * else (a fault of the service) with its stack.
 */
export function exitOnStartFailure(error: unknown): never {
  if (error instanceof StartupFailure || error instanceof InvalidSettingsError) console.error(error.message);
  else console.error('Cannot start:', error);
  process.exit(1);
}
