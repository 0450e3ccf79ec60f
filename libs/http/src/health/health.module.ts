import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { DrainState, HealthController } from './health.controller';

@Module({
  imports: [TerminusModule.forRoot({ logger: false })],
  controllers: [HealthController],
  providers: [DrainState],
  exports: [DrainState],
})
export class HealthModule {}
