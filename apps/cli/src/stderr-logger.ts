import { ConsoleLogger, LogLevel } from '@nestjs/common';

/**
 * Nest's console logger with every line on stderr: the CLI's stdout carries only the command's JSON
 * result, and warnings (a change that could not be announced to the running processes, say) still
 * reach the operator.
 */
export class StderrLogger extends ConsoleLogger {
  constructor() {
    super({ logLevels: ['error', 'warn'] });
  }

  protected override printMessages(
    messages: unknown[],
    context?: string,
    logLevel?: LogLevel,
    _writeStreamType?: 'stdout' | 'stderr',
    errorStack?: unknown,
    params?: Record<string, unknown>,
  ): void {
    super.printMessages(messages, context, logLevel, 'stderr', errorStack, params);
  }
}
