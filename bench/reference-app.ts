// The ceiling every scenario is compared with: bare NestJS on platform-express, one static route
// answering the same 20-pet JSON that `GET /v1/pets?limit=20` answers on the seeded catalogue, with
// no guard, pipe, filter, middleware or logging. Started by the bench like the apps, on BENCH_PORT.
//
// With BENCH_DATABASE_URL and BENCH_REDIS_URL it also serves `/pets-from-stores`: the same page read
// from PostgreSQL with a raw pg pool after one EVALSHA counting two windows, the stores' share of a
// request and nothing else (the `ceiling` scenario).
import 'reflect-metadata';
import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Redis } from 'ioredis';
import { Pool } from 'pg';
import { readFirstPetsPage } from '@app/pets';
import { seededPet } from './support/seeded-pets';

const PAYLOAD = Array.from({ length: 20 }, (_, i) => seededPet(i + 1));

/** A minute and a day counter in one script: the shape of the limiter's round trip, not its rules. */
const TWO_WINDOWS = `
local minute = redis.call('INCR', KEYS[1])
if minute == 1 then redis.call('EXPIRE', KEYS[1], 60) end
local day = redis.call('INCR', KEYS[2])
if day == 1 then redis.call('EXPIRE', KEYS[2], 86400) end
return { minute, day }`;

const pool = process.env.BENCH_DATABASE_URL
  ? new Pool({ connectionString: process.env.BENCH_DATABASE_URL, max: 10 })
  : undefined;
const redis = process.env.BENCH_REDIS_URL ? new Redis(process.env.BENCH_REDIS_URL) : undefined;
redis?.defineCommand('twoWindows', { numberOfKeys: 2, lua: TWO_WINDOWS });

@Controller()
class ReferenceController {
  @Get('pets')
  list() {
    return PAYLOAD;
  }

  @Get('pets-from-stores')
  async listFromStores() {
    const windows = redis as unknown as { twoWindows: (minute: string, day: string) => Promise<number[]> };
    await windows.twoWindows('ceiling:minute', 'ceiling:day');
    return readFirstPetsPage(pool!, 20);
  }
}

@Module({ controllers: [ReferenceController] })
class ReferenceModule {}

async function main(): Promise<void> {
  const app = await NestFactory.create<NestExpressApplication>(ReferenceModule, { logger: false });
  await app.listen(Number(process.env.BENCH_PORT), '127.0.0.1');
}

void main();
