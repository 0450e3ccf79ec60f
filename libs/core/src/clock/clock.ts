import { Global, Injectable, Module } from '@nestjs/common';

/** The current time, injected so tests can move it (e.g. across a sunset date). */
@Injectable()
export class Clock {
  now(): Date {
    return new Date();
  }
}

@Global()
@Module({ providers: [Clock], exports: [Clock] })
export class ClockModule {}
