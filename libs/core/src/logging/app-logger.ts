import { Injectable } from '@nestjs/common';
import { Logger } from 'nestjs-pino';

/**
 * Nest's own account of how it wired the app (every module, controller and route, then "started"): a
 * hundred lines on every start that say nothing an operator acts on, so they go out at `trace` (level
 * `verbose` in Nest's terms), where whoever debugs the wiring still finds them.
 */
const WIRING_CONTEXTS = new Set([
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestFactory',
  'NestApplication',
]);

/** The process's logger for Nest (`app.useLogger`): nestjs-pino's, with Nest's wiring lines kept quiet. */
@Injectable()
export class AppLogger extends Logger {
  override log(message: unknown, ...optionalParams: unknown[]): void {
    const context = optionalParams.at(-1);
    if (typeof context === 'string' && WIRING_CONTEXTS.has(context)) super.verbose(message, ...optionalParams);
    else super.log(message, ...optionalParams);
  }
}
