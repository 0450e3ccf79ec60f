// The ceiling every scenario is compared with: bare NestJS on platform-express, one static route
// answering the same 20-pet JSON that `GET /v1/pets?limit=20` answers on the seeded catalogue, with
// no guard, pipe, filter, middleware or logging. Started by the bench like the apps, on BENCH_PORT.
import 'reflect-metadata';
import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { seededPet } from './support/seeded-pets';

const PAYLOAD = Array.from({ length: 20 }, (_, i) => seededPet(i + 1));

@Controller()
class ReferenceController {
  @Get('pets')
  list() {
    return PAYLOAD;
  }
}

@Module({ controllers: [ReferenceController] })
class ReferenceModule {}

async function main(): Promise<void> {
  const app = await NestFactory.create<NestExpressApplication>(ReferenceModule, { logger: false });
  await app.listen(Number(process.env.BENCH_PORT), '127.0.0.1');
}

void main();
